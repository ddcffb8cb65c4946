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

// waitingPerSlot bounds the calls waiting for a slot: at most this many
// per call slot wait; one more is refused at once. Over HTTP a client may
// post calls and walk away (a disconnect is no cancellation), and each
// waited on, a goroutine and its arguments, without end.
const waitingPerSlot = 32

// takeSlot waits for one of the server's call slots, or for ctx to end
// (the client cancelled the call, or the session closed), and returns
// the function that gives the slot back; past waitingPerSlot calls
// waiting per slot it refuses at once.
func (s *Server) takeSlot(ctx context.Context) (release func(), err error) {
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	default:
	}
	if most := int64(waitingPerSlot * cap(s.slots)); s.waiting.Add(1) > most {
		s.waiting.Add(-1)
		return nil, fmt.Errorf("%d calls are waiting for a call slot already, the most kitsoki mcp serve queues (at most %d calls run at once: --max-calls); wait for the answers, or cancel calls that are no longer wanted", most, cap(s.slots))
	}
	defer s.waiting.Add(-1)
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("cancelled while waiting for a call slot (at most %d calls run at once: --max-calls): %v", cap(s.slots), context.Cause(ctx))
	}
}
