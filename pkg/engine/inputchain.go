package engine

import (
	"fmt"

	"kitsoki/internal/human"
)

// inputChain counts what lands with no user input between: the job
// completions a real clock delivers (drainJobs) and the timeouts kitsoki
// run waits for (waitOnce). Upstream's headless turn returns after its
// one turn; kitsoki run waits for them, so a job whose on_complete starts
// the next one, or two states whose timeouts lead to each other, ran until
// --timeout (none by default), its trace growing all the while. They are
// held to the bounds of one advance_clock's landing: r.landCap completions
// and r.landCap timeouts, r.heldCap of their events (which the trace
// writes).
type inputChain struct {
	jobs, timeouts, held int
}

// admitJob is the error of j's completion past r.landCap.
func (c *inputChain) admitJob(r *runner, j *job) error {
	if c.jobs >= r.landCap {
		return r.landErr(j, "input", fmt.Sprintf("more than %d background jobs landed %%s", r.landCap))
	}
	c.jobs++
	return nil
}

// admitTimeout is the error of tm's firing past r.landCap.
func (c *inputChain) admitTimeout(r *runner, tm *armedTimeout) error {
	if c.timeouts >= r.landCap {
		return timeoutLoopErr(tm, fmt.Sprintf("more than %d timeouts fired %%s", r.landCap))
	}
	c.timeouts++
	return nil
}

// keep counts t's events; past r.heldCap it is fail's error.
func (c *inputChain) keep(r *runner, t *Turn, fail func(what string) error) error {
	if t == nil {
		return nil
	}
	c.held += heldSize(t.Events, r.heldCap)
	if c.held > r.heldCap {
		return fail("the timeouts and background jobs landing %s kept more than " + human.Size(int64(r.heldCap)) + " of events")
	}
	return nil
}

// timeoutLoopErr is the error of a timeout past the bounds: what passed,
// its %s the landing.
func timeoutLoopErr(tm *armedTimeout, what string) error {
	return fmt.Errorf("%s: %s: the timeout of state %q leads, through its target, to states whose timeouts fire again, without end; give the loop a way out (a state without timeout:, or one the run rests in), or stop the run sooner with --timeout",
		tm.owner.Timeout.Pos, fmt.Sprintf(what, "since the last input"), tm.owner.Path)
}
