package flowtest

import (
	"fmt"
	"slices"

	"kitsoki/internal/human"
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// Upstream's expect_jobs first counts the jobs that became terminal in
// the turn and fails when there are fewer than the entries (assert.go's
// jobChecks: "expected N jobs to terminate this turn, got M"). On a turn
// the settle walk follows, with every job of the fixture followed
// (lint_jobs_land.go), that count is at most the jobs the turn submits
// (its user turn, its post-bind pass, the landings of its advance) plus
// the jobs an earlier turn submitted with a stub delay: that have not
// landed. A job whose stub answers with no delay: is terminal by the end
// of the turn that submits it (engine jobs.go's storeStatusLocked;
// conformance job-ends-at-once, job-ended-before-landing), so a later
// turn never counts it, landed or not. Nor does any turn count a job
// whose with: renders a NaN or an infinity, for which upstream's job
// store holds no row (engine JobInfo.Unstored; conformance
// job-args-non-finite).

// jobsAtMost warns when t's expect_jobs lists more entries than the
// jobs that can become terminal in it: before are the fixture's jobs not
// landed when the turn started; w walked t.
func (l *fixtureLint) jobsAtMost(t *Turn, before []litJob, w *settleWalk) {
	if len(t.ExpectJobs) == 0 || !l.fx.Orchestrated() || l.jobsLost || !l.jobEntriesWellFormed(t) {
		return
	}
	var c jobCount
	c.submitted, c.unstored, c.ended = w.submitted, w.unstoredJobs, l.raced
	for _, j := range before {
		switch {
		case j.unstored:
			c.unstored++
		case j.due > j.at:
			c.delayed++
		default:
			c.ended++
		}
	}
	most := c.submitted + c.delayed
	if len(t.ExpectJobs) <= most {
		return
	}
	l.warn(t.valueAt("expect_jobs"), ruleJobNever, "turns[%d].expect_jobs lists %d %s, but at most %d can become terminal in this turn (%s): the turn fails on both engines (expect_jobs: expected %d jobs to terminate this turn, got %d or fewer); %s",
		t.Index, len(t.ExpectJobs), human.Plural(len(t.ExpectJobs), "entry", "entries"), most, c, len(t.ExpectJobs), most, c.fix())
}

// jobCount is what jobsAtMost counted: the jobs the turn submits and
// upstream stores, the earlier turns' still out (delayed), those ended
// in the turn that submitted them, and those never stored.
type jobCount struct{ submitted, delayed, ended, unstored int }

func (c jobCount) String() string {
	s := fmt.Sprintf("%d the turn submits, every step of it certain", c.submitted)
	for _, n := range []struct {
		n    int
		what string
	}{
		{c.delayed, "an earlier turn submitted with a stub delay: still out"},
		{c.ended, "an earlier turn submitted that ended before this turn (a job whose stub has no delay: ends in the turn that submits it, which alone counts it)"},
		{c.unstored, human.Plural(c.unstored, "whose with: renders", "whose with: render") + " a NaN or an infinity: upstream's job store holds no row for such a job, so expect_jobs never sees it"},
	} {
		if n.n > 0 {
			s += fmt.Sprintf("; %d %s %s", n.n, human.Plural(n.n, "job", "jobs"), n.what)
		}
	}
	return s
}

// fix is the fix jobsAtMost names.
func (c jobCount) fix() string {
	switch {
	case c.unstored > 0:
		return "give the job's with: finite values, or remove the extra entries"
	case c.ended > 0:
		return "expect such a job in the turn that submits it (or give its stub a delay: the turn's advance_clock reaches), or remove the extra entries"
	}
	return "remove the extra entries, or expect them in the turn whose jobs end"
}

// jobEntriesWellFormed reports whether every expect_jobs entry of t has
// a namespace the story's jobs may have and a terminal status: the
// entries expectJobs warns about stop upstream's check before it counts.
func (l *fixtureLint) jobEntriesWellFormed(t *Turn) bool {
	ns, known := l.ix.jobNamespaces()
	return !slices.ContainsFunc(t.ExpectJobs, func(je JobExpect) bool {
		return je.Namespace == "" || !slices.Contains(terminalStatus, je.Status) || known && !ns[je.Namespace]
	})
}

// noteUnstored records whether background call e, queued now, certainly
// renders a NaN or an infinity into its with: on the known world, as
// upstream renders it when the machine walks the entry; false (give the
// walk up) when e is queued twice with different verdicts.
func (w *settleWalk) noteUnstored(e *story.Effect) bool {
	if !e.Background() {
		return true
	}
	bad := false
	if w.l.world != nil {
		_, bad = w.l.world.withRenders(e)
	}
	if slices.Contains(w.calls, e) && w.unstored[e] != bad {
		return false
	}
	if w.unstored == nil {
		w.unstored = map[*story.Effect]bool{}
	}
	w.unstored[e] = bad
	return true
}

// withRenders reports whether call e's with: certainly renders
// (setRenders) and, for a background call, whether it certainly holds a
// NaN or an infinity: each {{ }} leaf rendered on the known world, or
// reading world and slot keys by name only (no world value holds one).
// Upstream submits such a job and runs it as any other.
func (w *knownWorld) withRenders(e *story.Effect) (certain, nonFinite bool) {
	if w.setRenders(e.With) {
		return true, false // a literal NaN is no with: the loader reads
	}
	if !e.Background() || w.judge == nil {
		return false, false
	}
	certain = true
	jsonvalue.MapLeaves(e.With, func(leaf any) any {
		s, isText := leaf.(string)
		if !isText || !story.IsTemplated(s) || !certain {
			return leaf
		}
		r := w.judge.rendering(s, w)
		nonFinite = nonFinite || r.nonFinite
		certain = r.ok || r.nonFinite || w.judge.readsOnly(s)
		return leaf
	})
	return certain, certain && nonFinite
}
