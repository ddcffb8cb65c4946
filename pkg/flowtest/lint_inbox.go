package flowtest

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// The inbox's unread notifications are counted as the settle walk
// follows the fixture's jobs (flow-format §3.10, engine jobs.go;
// conformance lint-inbox-known, probed on the existing engine): each
// background job submitted posts info, each landing success (done) or
// error (failed), and nothing else posts in a story that never calls
// host.inbox.add; nothing marks one read. The count is given up for the
// rest of the fixture where it is not certain: the fixture's jobs are not
// followed (jobsLost), a turn rests on a terminal state or an exit
// (upstream's listener stops posting), or a job lands there. A turn that
// leaves a job due but not landed (no delay, no advance) is not judged:
// upstream's listener lands it in real time, racing the check.

// litInbox is the fixture's inbox as far as it is certain: the
// severities of the notifications posted, in order; lost once not.
type litInbox struct {
	sevs []string
	lost bool
}

// startInbox is the inbox a fixture starts with: empty, and followed on
// the orchestrator path (the legacy path has none) of a story folded
// whole that calls nothing that may post one (host.inbox.add, or a call
// whose name is templated).
func (l *fixtureLint) startInbox() litInbox {
	lost := !l.fx.Orchestrated() || l.ix.unfolded
	for h := range l.ix.invoked {
		lost = lost || strings.Contains(h, "inbox") || story.IsTemplated(h)
	}
	return litInbox{lost: lost}
}

// post records a notification of severity sev.
func (l *fixtureLint) post(sev string) {
	l.inbox.sevs = append(slices.Clip(l.inbox.sevs), sev)
}

// landPosting lands job j (land) and records its notice: posted unless
// its completion turn fails (the engine posts none then), so where an
// effect of the chain it runs may fail, or the machine rests on a
// terminal state or has left through an exit (upstream's listener may
// have stopped), the inbox is given up.
func (w *settleWalk) landPosting(j litJob) bool {
	if w.cur == nil || w.cur.Terminal {
		w.l.inbox.lost = true
	}
	w.landing, w.risky = true, false
	ok := w.land(j)
	w.landing = false
	if w.risky {
		w.l.inbox.lost = true
	}
	sev := "success"
	if j.ans.err != "" {
		sev = "error"
	}
	w.l.post(sev)
	return ok
}

// noteChainRisk marks the landing risky when e, run in a completion
// turn, may fail there: a set: or say: template that does not certainly
// render on the known world, an increment: (of a value that may not be
// a number), a call.
func (w *settleWalk) noteChainRisk(e *story.Effect, kw *knownWorld) {
	switch {
	case len(e.Set) > 0:
		for _, kv := range e.Set {
			if !kw.setRenders(kv.Value) {
				w.risky = true
			}
		}
	case len(e.Increment()) > 0, e.Invoke != "":
		w.risky = true
	case story.IsTemplated(e.Say):
		if _, ok := w.l.guards.render(e.Say, kw); !ok {
			w.risky = true
		}
	}
}

// inboxExpected warns at t's expect_inbox when the inbox the fixture
// certainly has after t differs from it, as the runner compares it
// (assert.go inboxChecks), and reports whether it warned.
func (l *fixtureLint) inboxExpected(t *Turn) bool {
	ib, ie := l.inbox, t.ExpectInbox
	if ie == nil || ib.lost || t.ExpectError != nil {
		return false
	}
	if slices.ContainsFunc(l.jobs, func(j litJob) bool { return j.due <= l.now }) {
		return false // upstream's listener may land it before the check, or not
	}
	unread, attention := len(ib.sevs), 0
	for _, s := range ib.sevs {
		if s == "action_required" {
			attention++
		}
	}
	sorted := slices.Sorted(slices.Values(ib.sevs))
	var what string
	switch {
	case ie.Unread != nil && *ie.Unread != unread:
		what = fmt.Sprintf("unread: %d", *ie.Unread)
	case ie.NeedsAttention != nil && *ie.NeedsAttention != attention:
		what = fmt.Sprintf("needs_attention: %d", *ie.NeedsAttention)
	case len(ie.Severities) > 0 && badSeverity(ie) < 0 && !slices.Equal(sorted, slices.Sorted(slices.Values(ie.Severities))):
		what = fmt.Sprintf("severities: %v", ie.Severities)
	default:
		return false
	}
	l.warn(ie.Pos, ruleInboxKnown, "turns[%d].expect_inbox.%s, but after the turns before it and this one the inbox certainly holds %d unread notification(s), severities %v, needs_attention %d: every turn was followed (each background job submitted posts info, each landing success or error as this fixture's stubs answer them, and nothing in the story calls host.inbox.add): the assertion fails on both engines; expect those counts, or fix what should post them",
		t.Index, what, unread, sorted, attention)
	return true
}

// inboxAfter gives the inbox up after a turn that warned (the rest is
// not judged), or in a story that starts jobs, where the turn does not
// certainly rest on a state that is not terminal (upstream's listener
// stops posting at a terminal state or an exit).
func (l *fixtureLint) inboxAfter(warned bool) {
	r := l.rest
	if warned || l.ix.background && (r.at == nil || r.at.Terminal || len(r.alt) > 0) {
		l.inbox.lost = true
	}
}

// inboxSeverities are the severities a notification can have on both
// engines (flow-format §3.10): host.inbox.add posts action_required or
// info (conformance inbox-kind-severity), a job info on submission,
// success, error or warn when it ends, action_required when it asks.
var inboxSeverities = []string{"action_required", "error", "info", "success", "warn"}

// severityNever warns at the first expect_inbox.severities entry of the
// fixture that no notification can have: upstream compares the sorted
// lists whole, so that turn fails on both engines whatever the story
// posts. A turn with expect_error runs no other assertion; the legacy
// path none of the inbox (flow-not-checked says so).
func (l *fixtureLint) severityNever() {
	if !l.fx.Orchestrated() {
		return
	}
	for _, t := range l.fx.Turns {
		ie := t.ExpectInbox
		if ie == nil || t.ExpectError != nil {
			continue
		}
		if i := badSeverity(ie); i >= 0 {
			l.warn(ie.Pos, ruleInboxKnown, "turns[%d].expect_inbox.severities[%d]: %q is no notification's severity (they are %s; host.inbox.add's kind checkpoint or action_required posts action_required, any other kind info): the assertion fails on both engines whatever the story posts; list only those severities",
				t.Index, i, ie.Severities[i], strings.Join(inboxSeverities, ", "))
			return
		}
	}
}

// badSeverity is the index of the first severities entry of ie no
// notification has, or -1 (severityNever warns at it).
func badSeverity(ie *InboxExpect) int {
	return slices.IndexFunc(ie.Severities, func(s string) bool { return !slices.Contains(inboxSeverities, s) })
}
