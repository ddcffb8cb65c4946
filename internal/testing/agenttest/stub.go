package agenttest

import (
	"context"
	"encoding/json"
	"sync"

	"kitsoki/pkg/agent"
)

// StubAgent is an in-process stand-in for the claude CLI behind
// agent.claude (the fallback of a rejected local-model answer): it records
// every request and answers Answer with meta {"model": "claude-stub",
// "cost_usd": 0.01}, or fails with Err. Subs, when set, adds sub-events.
type StubAgent struct {
	Answer string
	Err    error
	Subs   func(req *agent.AskRequest) []agent.SubEvent
	// Transcript, when set, is sent with every answer.
	Transcript *agent.Transcript

	mu   sync.Mutex
	reqs []agent.AskRequest
}

func (c *StubAgent) Ask(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
	c.mu.Lock()
	c.reqs = append(c.reqs, *req)
	c.mu.Unlock()
	if c.Err != nil {
		return nil, c.Err
	}
	resp := &agent.AskResponse{Submission: json.RawMessage(c.Answer), Meta: map[string]any{"model": "claude-stub", "cost_usd": 0.01}}
	if c.Subs != nil {
		resp.SubEvents = c.Subs(req)
	}
	resp.Transcript = c.Transcript
	return resp, nil
}

// Calls returns the requests received so far.
func (c *StubAgent) Calls() []agent.AskRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]agent.AskRequest(nil), c.reqs...)
}
