package agent

import (
	"context"
	"errors"
	"time"

	"kitsoki/internal/panicked"
)

type askOutcome struct {
	resp *AskResponse
	err  error
	// inTime: the call's context had not ended when the transport
	// returned (an answer given in reaction to the deadline is late).
	inTime bool
}

// askWithDeadline runs t.Ask under the hard deadline. The transport runs on
// its own goroutine so that a transport ignoring ctx cannot hold the call
// past the deadline. When the deadline passes, the transport is cancelled
// and (unless the caller's own context ended: an interrupted run does not
// wait) given grace (lateGrace) to return; an answer it still produces is late: it
// is returned as such (for the record) and never used. An answer the
// transport gave before the deadline passed or ctx ended is the call's
// answer, whichever of the two the wait sees first.
func askWithDeadline(ctx context.Context, t Transport, alias string, req *AskRequest, timeout, grace time.Duration) (*AskResponse, *AskResponse, *AskError) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ch := make(chan askOutcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- askOutcome{err: Errorf(KindPluginCrash, "%s", panicked.New(alias, "the agent transport", p)), inTime: cctx.Err() == nil}
			}
		}()
		resp, err := t.Ask(cctx, req)
		ch <- askOutcome{resp, err, cctx.Err() == nil}
	}()
	return awaitAsk(ctx, cctx, ch, alias, timeout, grace)
}

// awaitAsk waits for the transport's outcome on ch under cctx, the call's
// deadline derived from ctx (askWithDeadline). Whether an outcome is late
// is what it says (inTime), not which ready case a select picked.
func awaitAsk(ctx, cctx context.Context, ch <-chan askOutcome, alias string, timeout, grace time.Duration) (*AskResponse, *AskResponse, *AskError) {
	var out askOutcome
	got := false
	select {
	case out = <-ch:
		got = true
	case <-cctx.Done():
		select {
		case out = <-ch: // there as the call ended: select picks either
			got = true
		default:
		}
	}
	if got && out.inTime {
		return answered(ctx, out, alias, timeout)
	}
	if !got && ctx.Err() == nil { // the call's own deadline, not the run ending
		select {
		case out = <-ch:
		case <-time.After(grace):
		}
	}
	var late *AskResponse
	if out.err == nil && out.resp != nil {
		late = out.resp
	}
	return nil, late, deadlineError(ctx, alias, cctx.Err(), timeout)
}

// answered is the call's result for the transport's outcome out, received
// by the deadline.
func answered(ctx context.Context, out askOutcome, alias string, timeout time.Duration) (*AskResponse, *AskResponse, *AskError) {
	if out.err != nil {
		if ae, ok := errors.AsType[*AskError](out.err); ok {
			return nil, nil, ae
		}
		if errors.Is(out.err, context.DeadlineExceeded) || errors.Is(out.err, context.Canceled) {
			return nil, nil, deadlineError(ctx, alias, out.err, timeout)
		}
		return nil, nil, &AskError{Kind: KindPluginCrash, Detail: alias + ": " + out.err.Error(), Underlying: out.err}
	}
	if out.resp == nil {
		return &AskResponse{}, nil, nil
	}
	return out.resp, nil, nil
}
