package flowtest

import (
	"maps"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// An expect_jobs entry is matched against the jobs that became terminal
// in the turn, each job named by the invoke that submitted it (engine
// jobs.go's submit: JobInfo.Namespace). Upstream fails the turn when an
// entry has no namespace or a status that is not terminal (it checks the
// entries before any job), and when no job of the entry's namespace is
// fresh, which is certain when no background invoke of the story names it
// (conformance lint-expect-jobs, probed on the existing engine). On the
// legacy path expect_jobs is not checked at all (flow-not-checked).

// expectJobs reports the expect_jobs entries of t that certainly fail.
func (l *fixtureLint) expectJobs(t *Turn) {
	if len(t.ExpectJobs) == 0 || !l.fx.Orchestrated() {
		return
	}
	ns, known := l.ix.jobNamespaces()
	for i, je := range t.ExpectJobs {
		switch {
		case je.Namespace == "":
			l.warn(je.Pos, ruleJobNever, "turns[%d].expect_jobs[%d] has no namespace: the turn fails on both engines (expect_jobs[%d]: namespace is required); name the invoke that submits the job", t.Index, i, i)
		case !slices.Contains(terminalStatus, je.Status):
			l.warn(je.Pos, ruleJobNever, "turns[%d].expect_jobs[%d]: status %q is not one of done|failed|cancelled|awaiting_input: the turn fails on both engines, whatever the job does", t.Index, i, je.Status)
		case known && !ns[je.Namespace]:
			l.warn(je.Pos, ruleJobNever, "turns[%d].expect_jobs[%d]: namespace %q is no background call of the story (%s): no job of it ever terminates, so the turn fails on both engines", t.Index, i, je.Namespace, jobsNamed(ns))
		}
	}
}

// jobNamespaces is the invoke of every background call of the folded
// story: the namespaces its jobs can have. known is false when some may
// be missed (a templated or interface invoke, phases or proposals, a story
// that did not fold).
func (ix *storyIndex) jobNamespaces() (ns map[string]bool, known bool) {
	if ix.unfolded || ix.story.Phases != nil || len(ix.story.Proposals) > 0 {
		return nil, false
	}
	ns = map[string]bool{}
	var w story.EffectWalk
	for p := range w.States(ix.story.AllStates()...) {
		e := p.Effect
		if e.Invoke == "" || !e.Background() {
			continue
		}
		if story.IsTemplated(e.Invoke) || strings.HasPrefix(e.Invoke, "iface.") {
			return nil, false
		}
		ns[e.Invoke] = true
	}
	return ns, true
}

// jobsNamed says which namespaces the story's jobs have.
func jobsNamed(ns map[string]bool) string {
	if len(ns) == 0 {
		return "it starts none"
	}
	return "its jobs are " + strings.Join(slices.Sorted(maps.Keys(ns)), ", ")
}
