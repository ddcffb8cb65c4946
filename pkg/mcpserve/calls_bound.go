package mcpserve

import (
	"context"
	"fmt"
)

// DefaultMaxCalls is how many tool calls run at once when
// Options.MaxCalls is 0. Each may start a plugin process or spend an
// agent's tokens, and the client may be an LLM agent steered by hostile
// content into firing calls without end; the rest wait for a slot.
const DefaultMaxCalls = 8

// takeSlot waits for one of the server's call slots, or for ctx to end
// (the client cancelled the call, or the session closed), and returns
// the function that gives the slot back.
func (s *Server) takeSlot(ctx context.Context) (release func(), err error) {
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	default:
	}
	s.waiting.Add(1)
	defer s.waiting.Add(-1)
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("cancelled while waiting for a call slot (at most %d calls run at once: --max-calls): %v", cap(s.slots), context.Cause(ctx))
	}
}
