package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"kitsoki/internal/agentcall"
	"kitsoki/internal/jsonvalue"
)

// planned is an episode chosen by plan and not yet asked.
type planned struct {
	ep  *Episode
	idx int
}

type cassetteAgent struct {
	c     *Cassette
	alias string
}

// matchArgs is {"verb": req.verb} merged with req.with (with wins).
func (a *cassetteAgent) matchArgs(req *AskRequest) map[string]any {
	args := map[string]any{"verb": req.Verb}
	maps.Copy(args, req.With)
	return args
}

// plan picks the episode before the request is built, so Dispatch can use
// the cassette call id (and report episode_id/match_idx on agent.call.start).
func (a *cassetteAgent) plan(req *AskRequest) (string, string, int, bool) {
	c := a.c
	var perr error
	ep, idx := c.Pick(c.agentKey(a.alias, req, a.matchArgs(req), &perr))
	if ep == nil {
		return "", "", 0, false // Ask picks again and reports perr
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending[agentcall.CassetteID(c.AppID, ep.ID, idx)] = planned{ep, idx}
	return c.AppID, ep.ID, idx, true
}

func (a *cassetteAgent) Ask(ctx context.Context, req *AskRequest) (*AskResponse, error) {
	c := a.c
	args := a.matchArgs(req)
	c.mu.Lock()
	p, ok := c.pending[req.CallID]
	delete(c.pending, req.CallID)
	c.mu.Unlock()
	ep, idx := p.ep, p.idx
	if !ok {
		var perr error
		ep, idx = c.Pick(c.agentKey(a.alias, req, args, &perr))
		if ep == nil && perr != nil {
			return nil, Errorf(KindTransportError, "cassette agent %q: %v", a.alias, perr)
		}
	}
	if ep == nil {
		ids := make([]string, len(c.Episodes))
		for j, ep := range c.Episodes {
			ids[j] = ep.ID
		}
		return nil, Errorf(KindTransportError,
			"cassette agent %q: cassette miss: no episode matched handler=%q args=%s state_path=%q in %s; available episodes: [%s]",
			a.alias, a.alias, describeArgs(args), req.StatePath, c.Path, strings.Join(ids, " "))
	}
	if ep.Delay > 0 {
		t := time.NewTimer(ep.Delay)
		select {
		case <-ctx.Done():
			select {
			case <-t.C: // the delay passed as ctx ended: select picks either, the answer must win
			default:
				t.Stop()
				return nil, ContextError(a.alias, ctx.Err())
			}
		case <-t.C:
		}
	}
	if ep.Response.InfraError != "" {
		return nil, Errorf(KindTransportError, "cassette episode %q: %s", ep.ID, ep.Response.InfraError)
	}
	meta := map[string]any{
		"transport":  "cassette",
		"episode_id": ep.ID,
		"match_idx":  idx,
		"call_id":    agentcall.CassetteID(c.AppID, ep.ID, idx),
	}
	resp := &AskResponse{Meta: meta}
	if ag := ep.Agent; ag != nil {
		if ag.Error != "" {
			return nil, Errorf(KindPluginCrash, "cassette episode %q: %s", ep.ID, ag.Error)
		}
		if ag.Model != "" {
			meta["model"] = ag.Model
		}
		if ag.Agent != "" {
			meta["agent"] = ag.Agent
		}
		if ag.DurationMS > 0 {
			meta["duration_ms"] = ag.DurationMS
		}
		if ag.PromptTokens > 0 || ag.ResponseTokens > 0 {
			meta["usage"] = map[string]any{"input_tokens": ag.PromptTokens, "output_tokens": ag.ResponseTokens}
		}
		if ag.CostUSD > 0 {
			meta["cost_usd"] = ag.CostUSD
		}
		resp.Submission = episodeSubmission(ag.Response)
		if ag.ResponseJSON != nil {
			resp.Submission = ag.ResponseJSON
		}
		resp.Transcript = ag.Transcript
		if h, _ := ep.Match["handler"].(string); strings.HasPrefix(h, "host.") && ep.Response.Data != nil {
			meta["response_data"] = jsonvalue.Normalize(ep.Response.Data)
		}
		return resp, nil
	}
	if ep.Response.Error != "" {
		return nil, Errorf(KindPluginCrash, "cassette episode %q: %s", ep.ID, ep.Response.Error)
	}
	b, err := json.Marshal(jsonvalue.Normalize(ep.Response.Data))
	if err != nil {
		return nil, Errorf(KindTransportError, "cassette episode %q: response.data cannot be encoded as JSON: %v", ep.ID, err)
	}
	resp.Submission = b
	return resp, nil
}

// episodeSubmission: "" = none; { or [ = raw JSON; else a JSON string.
func episodeSubmission(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		return json.RawMessage(s)
	}
	q, _ := json.Marshal(s)
	return q
}

func describeArgs(args map[string]any) string {
	parts := make([]string, 0, len(args))
	for k, v := range args {
		b, err := json.Marshal(jsonvalue.Normalize(v))
		if err != nil {
			b = []byte(fmt.Sprint(v))
		}
		parts = append(parts, k+":"+string(b))
	}
	slices.Sort(parts)
	return "{" + strings.Join(parts, " ") + "}"
}

func (a *cassetteAgent) Close() error { return nil }
