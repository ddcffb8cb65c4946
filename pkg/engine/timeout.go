package engine

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// KindTimeout annotates a synthetic timeout turn (trace-eval.md A.7).
const KindTimeout = "machine.timeout"

var dayRe = regexp.MustCompile(`^(\d+)d$`)

// parseDuration accepts a Go duration or Nd on its own (story-format §4.1).
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if m := dayRe.FindStringSubmatch(s); m != nil {
		n, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil || n > int64(1<<63-1)/int64(24*time.Hour) {
			return 0, fmt.Errorf("invalid duration %q: too many days", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q (use a Go duration such as 90s or 5m, or Nd for days)", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("invalid duration %q: must not be negative", s)
	}
	return d, nil
}

// activeTimeout returns the timeout of the innermost active state that
// declares one, with that state.
func (r *runner) activeTimeout() (*Timeout, *State) {
	for s := r.cur; s != nil; s = s.Parent {
		if s.Timeout != nil {
			return s.Timeout, s
		}
	}
	return nil, nil
}

// wait blocks for d or until ctx ends.
func (r *runner) wait(ctx context.Context, d time.Duration) error {
	if r.opts.Wait != nil {
		return r.opts.Wait(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// fireTimeout waits out the resting state's timeout and takes its target
// as one synthetic turn: turn.start, machine.timeout, machine.transition
// (with an empty intent: no user intent fired it, so trace exporters do not
// turn it into a flow step), the states exited and entered, turn.end.
func (r *runner) fireTimeout(ctx context.Context, tm *Timeout, owner *State) error {
	env := r.env(nil, nil)
	after, err := tm.After.render(env)
	if err != nil {
		return fmt.Errorf("%s: state %q: timeout.after: %w", tm.Pos, owner.Path, err)
	}
	d, err := parseDuration(after)
	if err != nil {
		return fmt.Errorf("%s: state %q: timeout.after: %w", tm.Pos, owner.Path, err)
	}
	from := r.cur.Path
	r.note(Note{Kind: "timeout", State: from, Text: fmt.Sprintf("waiting %s for the timeout of %s → %s", strings.TrimSpace(after), owner.Path, tm.Target.src), Duration: d})
	if err := r.wait(ctx, d); err != nil {
		return fmt.Errorf("run interrupted while waiting %s for the timeout of %q: %w", strings.TrimSpace(after), owner.Path, err)
	}
	r.turn++
	r.turnState = from
	r.slots = nil
	if err := r.emit(KindTurnStart, map[string]any{"input": "[timeout] " + owner.Path, "turn": r.turn}); err != nil {
		return err
	}
	res, err := r.resolveTarget(ctx, owner, "", tm.Target)
	if err == nil && res.stay {
		err = fmt.Errorf("target %q stays in the state, so the timeout would fire for ever", tm.Target.src)
	}
	if err != nil {
		err = fmt.Errorf("%s: state %q: timeout.target: %w", tm.Pos, owner.Path, err)
		_ = r.emitAt(from, KindTurnEnd, map[string]any{"outcome": "rejected", "error": err.Error()})
		return err
	}
	if err := r.emit(KindTimeout, map[string]any{"state": owner.Path, "after": strings.TrimSpace(after), "target": res.describe()}); err != nil {
		return err
	}
	if err := r.emit(KindTransition, map[string]any{"from": from, "intent": "", "slots": map[string]any{}, "to": res.describe()}); err != nil {
		return err
	}
	var st step
	err = r.goTo(ctx, res, false, &st)
	if err == nil {
		err = r.settle(ctx, &st, 0)
	}
	end := map[string]any{"outcome": "transitioned"}
	if err != nil {
		end = map[string]any{"outcome": "rejected", "error": err.Error()}
	} else if r.ended && r.outcome == OutcomeExit {
		end["to"] = "__exit__" + r.exit
	} else if r.cur != nil {
		end["to"] = r.cur.Path
	}
	if e2 := r.emitAt(from, KindTurnEnd, end); e2 != nil && err == nil {
		err = e2
	}
	return err
}
