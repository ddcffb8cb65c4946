package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"kitsoki/internal/yamlnode"
)

// RunSession drives a session to its end for kitsoki run: the inputs in
// order, then resting timeouts and background jobs waited out; a rejected
// input or a failed turn ends it. It always returns a Result; Result.Err
// carries the failure.
func RunSession(ctx context.Context, m *Machine, so SessionOptions) *Result {
	s, err := Start(ctx, m, so)
	if s == nil {
		return &Result{Outcome: OutcomeFailed, Err: err}
	}
	defer s.Close()
	r := s.r
	consumed := 0
	if err == nil {
		err = s.runInputs(ctx, &consumed)
	}
	res := &Result{World: s.World(), Calls: r.calls, Turns: r.turn} // the world replayed
	if r.ended {
		res.Outcome, res.Exit = r.outcome, r.exit
	} else {
		res.Outcome = OutcomeRested // OutcomeFailed below when err is set
	}
	res.State = r.statePath()
	var tf turnFailed
	if errors.As(err, &tf) {
		// the turn wrote its machine.error already
		res.Outcome, res.Err = OutcomeFailed, tf.err
	} else if err != nil {
		res.Outcome, res.Err = OutcomeFailed, err
		if r.cur != nil {
			_ = r.emit(KindMachineError, map[string]any{"state": r.statePath(), "error": err.Error()})
		}
	}
	res.Unconsumed = len(so.Inputs) - consumed
	if res.Outcome == OutcomeRested && r.cur != nil {
		res.Available = r.allowedNext()
	}
	res.Jobs = r.jobs.list()
	res.Inbox = r.inbox.list()
	res.Bugs = r.runBugs()
	return res
}

// runInputs is the one-shot loop of RunSession: every input in order, then the
// resting state's timeouts and the background jobs, until nothing is left
// to wait for.
func (s *Session) runInputs(ctx context.Context, consumed *int) error {
	r := s.r
	if err := s.fireInputs(ctx, consumed); err != nil {
		return err
	}
	for i := 0; i < maxDeciderDepth; i++ {
		fired, err := s.decide(ctx)
		if err != nil {
			return err
		}
		if !fired {
			break
		}
	}
	for !r.ended {
		idle, err := s.waitOnce(ctx)
		if idle || err != nil {
			return err
		}
	}
	// jobs still running: wait for each to end (no on_complete)
	if err := s.Wait(ctx); err != nil {
		return fmt.Errorf("run interrupted while waiting for background jobs: %w", err)
	}
	return nil
}

// fireInputs fires the inputs in order until one is refused or fails, or the run ends.
func (s *Session) fireInputs(ctx context.Context, consumed *int) error {
	for _, in := range s.r.so.Inputs {
		if s.r.ended {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("run interrupted: %w", err)
		}
		*consumed++
		if in.Display == "" && in.Start == "" {
			in.Start = "[direct] intent=" + in.Intent
		}
		t, err := s.Fire(ctx, in)
		if err != nil {
			return err
		}
		if rj := t.Rejection; rj != nil {
			return rejectedInput(in, rj)
		}
		if t.Err != nil {
			return turnFailed{t.Err}
		}
	}
	return nil
}

// rejectedInput is the error that ends a run whose input was refused.
func rejectedInput(in Input, rj *Rejection) error {
	switch rj.Code {
	case CodeNotAllowed:
		if m := yamlnode.DidYouMean(in.Intent, rj.Allowed); m != "" {
			return fmt.Errorf("%s (it handles: %s); %s", rj.Message, listOrNone(rj.Allowed), m)
		}
		return fmt.Errorf("%s (it handles: %s)", rj.Message, listOrNone(rj.Allowed))
	case CodeMissingSlots:
		return fmt.Errorf("intent %q: %s; pass --slot NAME=VALUE", in.Intent, rj.Message)
	case CodeGuardFailed:
		return rj
	}
	return fmt.Errorf("intent %q: %s", in.Intent, rj.Message)
}

// waitOnce waits for what the resting machine waits on: a background job
// to end (its completion drained on the next call) or the armed timeout,
// whose turn it then runs. idle reports that nothing is left to wait for.
func (s *Session) waitOnce(ctx context.Context) (idle bool, err error) {
	r := s.r
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("run interrupted: %w", err)
	}
	s.mu.Lock()
	err = r.drainJobs(ctx)
	running, ch := r.jobs.pending()
	tm := r.timer
	s.mu.Unlock()
	if err != nil {
		return false, err
	}
	switch {
	case running == 0 && tm == nil:
		return true, nil
	case running > 0:
		var timerC <-chan time.Time
		if tm != nil {
			t := time.NewTimer(max(tm.deadline.Sub(r.clock.Now()), 0))
			timerC = t.C
			defer t.Stop()
		}
		select {
		case <-ctx.Done():
			return false, fmt.Errorf("run interrupted while waiting for %d background job(s): %w", running, ctx.Err())
		case <-ch:
			return false, nil
		case <-timerC:
		}
	default:
		r.note(Note{Kind: "timeout", State: r.statePath(), Text: fmt.Sprintf("waiting %s for the timeout of %s → %s", tm.after, tm.owner.Path, tm.owner.Timeout.Target.src), Duration: tm.d})
		if err := r.wait(ctx, tm.d); err != nil {
			return false, fmt.Errorf("run interrupted while waiting %s for the timeout of %q: %w", tm.after, tm.owner.Path, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := r.chain.admitTimeout(r, tm); err != nil {
		return false, err
	}
	t, err := r.timeoutTurn(ctx)
	if err != nil {
		return false, err
	}
	if err := r.chain.keep(r, t, func(what string) error { return timeoutLoopErr(tm, what) }); err != nil {
		return false, err
	}
	if t != nil && t.Err != nil {
		return false, t.Err
	}
	return false, nil
}

// turnFailed is a user turn's turn-fatal error, whose machine.error the
// turn has written.
type turnFailed struct{ err error }

func (e turnFailed) Error() string { return e.err.Error() }
func (e turnFailed) Unwrap() error { return e.err }

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "no intents"
	}
	return strings.Join(xs, ", ")
}
