package flowtest

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"kitsoki/internal/human"
	"kitsoki/internal/recost"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/engine"
)

// checker collects the failures of one turn (or of the session).
type checker struct {
	turn     int
	fails    []Failure
	state    string
	events   []event
	patterns *recost.Budget // the story's (story.Story.Patterns)
}

func (c *checker) fail(p Pos, format string, a ...any) *Failure {
	// a message may quote the run's values (a guard's error quotes a
	// world value int() could not parse): bounded as a finding's is
	msg := diag.ClipMessage(fmt.Sprintf(format, a...))
	c.fails = append(c.fails, Failure{Turn: c.turn, Pos: p, Message: msg, State: c.state, Events: lastEvents(c.events, 8)})
	return &c.fails[len(c.fails)-1]
}

// worldKeys checks listed top-level keys (flow-format.md §3.3): a missing
// key equals null; values compare exactly, numbers by value.
func (c *checker) worldKeys(label string, kvs []KV, world map[string]any, typed bool) {
	for _, kv := range kvs {
		got := world[kv.Key]
		if worldEqual(got, kv.Value) {
			continue
		}
		var f *Failure
		if typed {
			f = c.fail(kv.Pos, "%s[%q]: %s", label, kv.Key, typedGotWant(got, kv.Value))
		} else {
			f = c.fail(kv.Pos, "%s[%q]: got %s, want %s", label, kv.Key, clip(show(got)), clip(show(kv.Value)))
		}
		f.WorldDiff = nestedDiff(kv.Key, got, kv.Value)
	}
}

// rejected fails a turn that expected no rejection but got rej (nil: it
// got none), in the words of upstream's path.
func (c *checker) rejected(p Pos, rej *engine.Rejection, legacy bool) {
	switch {
	case rej == nil:
	case legacy:
		c.fail(p, "unexpected validation error: %s: %s", rej.Code, legacyMessage(rej))
	default:
		c.fail(p, "unexpected rejection: code=%s hint=%s", rej.Code, rej.GuardHint)
	}
}

// legacyMessage is the text upstream's machine gives a rejection (its
// GUARD_FAILED names no hint).
func legacyMessage(rej *engine.Rejection) string {
	if rej.Code == engine.CodeGuardFailed && !strings.HasPrefix(rej.Message, "no transition matched") {
		return fmt.Sprintf("no transition matched for intent %q in state %q", rej.Intent, rej.State)
	}
	return rej.Message
}

// stateChecks: an empty key asserts nothing (conformance expect-empty-state-keys).
func (c *checker) stateChecks(t *Turn, state string) {
	if t.ExpectState != nil && *t.ExpectState != "" && state != *t.ExpectState {
		f := c.fail(t.at("expect_state"), "expect_state: got %q, want %q", state, *t.ExpectState)
		f.Want = *t.ExpectState
	}
	if t.ExpectNotState != nil && *t.ExpectNotState != "" && state == *t.ExpectNotState {
		c.fail(t.at("expect_not_state"), "expect_not_state: state must not be %q", state)
	}
	if len(t.ExpectStateIn) > 0 && !slices.Contains(t.ExpectStateIn, state) {
		c.fail(t.at("expect_state_in"), "expect_state_in: %q not in %v", state, t.ExpectStateIn)
	}
}

func (c *checker) worldChecks(t *Turn, world, before map[string]any, legacy bool) {
	c.worldKeys("expect_world", t.ExpectWorld, world, true)
	if t.HasWorldFull {
		c.worldKeys("expect_world_full", t.ExpectWorldFull, world, false)
		listed := map[string]bool{}
		for _, kv := range t.ExpectWorldFull {
			listed[kv.Key] = true
		}
		for _, k := range slices.Sorted(maps.Keys(world)) {
			if !listed[k] {
				c.fail(t.at("expect_world_full"), "expect_world_full: unexpected key %q in world", k)
			}
		}
	}
	// upstream evaluates it on its legacy path only (flow-format.md §3.4)
	if t.ExpectWorldUnchanged && legacy {
		for _, k := range slices.Sorted(maps.Keys(before)) {
			if !worldEqual(before[k], world[k]) {
				f := c.fail(t.at("expect_world_unchanged"), "expect_world_unchanged: world[%q] changed from %s to %s", k, clip(show(before[k])), clip(show(world[k])))
				f.WorldDiff = nestedDiff(k, world[k], before[k])
			}
		}
	}
}

func (c *checker) slotChecks(t *Turn, sent map[string]any) {
	for _, kv := range t.ExpectSlots {
		if !equal(sent[kv.Key], kv.Value) {
			c.fail(kv.Pos, "expect_slots[%q]: got %s, want %s", kv.Key, show(sent[kv.Key]), show(kv.Value))
		}
	}
}

// eventMatches is one expect_events entry against one event.
func eventMatches(want EventExpect, ev event) bool {
	if want.Kind != ev.Kind {
		return false
	}
	if ev.Payload == nil {
		return want.From == "" && want.To == "" && len(want.Effect) == 0
	}
	if want.From != "" && ev.str("from") != want.From {
		return false
	}
	if want.To != "" && ev.str("to") != want.To {
		return false
	}
	for _, kv := range want.Effect {
		if !equal(ev.field(kv.Key), kv.Value) {
			return false
		}
	}
	return true
}

// describeEvent is an expect_events entry as upstream prints it (Go's
// %+v of its struct).
func describeEvent(e EventExpect) string {
	return fmt.Sprintf("{Kind:%s From:%s To:%s Effect:%v}", e.Kind, e.From, e.To, kvMap(e.Effect))
}

func (c *checker) eventChecks(t *Turn, evs []event, legacy bool) {
	// foreground harness.called events stand in for harness.dispatched
	wantsDispatched := slices.ContainsFunc(t.ExpectEvents, func(w EventExpect) bool { return w.Kind == kindDispatched })
	if !legacy && wantsDispatched && !hasKind(evs, kindDispatched) {
		stand := make([]event, len(evs))
		for i, ev := range evs {
			if ev.Kind == engine.KindHarnessCalled && ev.field("background") != true {
				ev.Kind = kindDispatched
			}
			stand[i] = ev
		}
		evs = stand
	}
	// an ordered subsequence: an entry not found consumes the rest (§3.5)
	cur := 0
	for _, want := range t.ExpectEvents {
		i := slices.IndexFunc(evs[cur:], func(ev event) bool { return eventMatches(want, ev) })
		if i < 0 {
			cur = len(evs)
			c.fail(want.Pos, "expect_events: event %s not found in subsequence", describeEvent(want))
			continue
		}
		cur += i + 1
	}
	if t.HasEventsExact {
		if len(evs) != len(t.ExpectEventsExact) {
			c.fail(t.at("expect_events_exact"), "expect_events_exact: got %d events, want %d", len(evs), len(t.ExpectEventsExact))
		} else {
			for i, want := range t.ExpectEventsExact {
				if !eventMatches(want, evs[i]) {
					c.fail(want.Pos, "expect_events_exact[%d]: event mismatch. got kind=%q, want kind=%q", i, evs[i].Kind, want.Kind)
				}
			}
		}
	}
}

// viewChecks checks the turn's view; it returns the failure of a view
// that does not match, for the caller to add what the view left out.
func (c *checker) viewChecks(t *Turn, view string) (mismatch *Failure) {
	if t.ExpectViewMatches != nil {
		re, err := c.patterns.Compile(*t.ExpectViewMatches)
		var costErr error
		if err == nil { // sizing a refused pattern would cost what compiling it does
			costErr = recost.Check(c.patterns.Insts(*t.ExpectViewMatches), len(view))
		}
		switch {
		case err != nil:
			c.fail(t.at("expect_view_matches"), "expect_view_matches: invalid regex %q: %v", *t.ExpectViewMatches, err)
		case costErr != nil:
			c.fail(t.at("expect_view_matches"), "expect_view_matches: %v", costErr)
		case !re.MatchString(view):
			mismatch = c.fail(t.at("expect_view_matches"), "expect_view_matches: view does not match %q\nview: %s", *t.ExpectViewMatches, shownView(view))
		}
	}
	if t.ExpectNoView && view != "" {
		c.fail(t.at("expect_no_view"), "expect_no_view: view is not empty: %s", shownView(view))
	}
	return mismatch
}

// viewShown is how much of a view a failure quotes: a story rendering
// megabytes on every turn would otherwise put them in the terminal, the
// --format github annotations and the JUnit report of every failing
// fixture (TestFailureQuotesABoundedView).
const viewShown = 4 << 10

// shownView is view quoted for a failure: whole up to viewShown bytes,
// else its start, cut on a rune, and its length (the --json report
// holds the whole view).
func shownView(view string) string {
	if len(view) <= viewShown {
		return strconv.Quote(view)
	}
	return fmt.Sprintf("%q… (%d bytes in all; the --json report holds the whole view)", view[:human.RuneCut(view, viewShown)], len(view))
}

const kindDispatched = "harness.dispatched"

// hostCallChecks counts the turn's foreground calls by full handler name
// (flow-format.md §3.8).
func (c *checker) hostCallChecks(t *Turn, evs []event, legacy bool) {
	for _, hc := range t.ExpectHostCalls {
		n := countMatching(hostCalls(evs, legacy, hc.Handler), hc.Args)
		switch {
		case hc.Times != nil && n != *hc.Times:
			c.fail(hc.Pos, "expect_host_calls: %s expected %d invocations, got %d", hc.Handler, *hc.Times, n)
		case hc.Times == nil && n == 0:
			c.fail(hc.Pos, "expect_host_calls: %s never invoked (args=%v)", hc.Handler, kvMap(hc.Args))
		}
	}
	c.noHostCalls(t.at("expect_no_host_calls"), t.ExpectNoHostCalls, evs, legacy)
}

// hostCalls is the args of each foreground call of handler the turn
// dispatched, in order.
func hostCalls(evs []event, legacy bool, handler string) []map[string]any {
	kind := dispatchKind(evs, legacy)
	var out []map[string]any
	for _, ev := range evs {
		if ev.Kind != kind || ev.str("namespace") != handler || ev.field("background") == true {
			continue
		}
		args, _ := ev.field("args").(map[string]any)
		out = append(out, args)
	}
	return out
}

// argsMatched is how many of want's keys args holds equal.
func argsMatched(args map[string]any, want []KV) int {
	n := 0
	for _, kv := range want {
		if equal(args[kv.Key], kv.Value) {
			n++
		}
	}
	return n
}

func countMatching(calls []map[string]any, want []KV) int {
	n := 0
	for _, args := range calls {
		if argsMatched(args, want) == len(want) {
			n++
		}
	}
	return n
}

func hasKind(evs []event, kind string) bool {
	return slices.ContainsFunc(evs, func(ev event) bool { return ev.Kind == kind })
}

// dispatchKind is the kind of the events that count a turn's host calls.
func dispatchKind(evs []event, legacy bool) string {
	if !legacy && !hasKind(evs, kindDispatched) {
		return engine.KindHarnessCalled
	}
	return kindDispatched
}

func (c *checker) noHostCalls(p Pos, names []string, evs []event, legacy bool) {
	kind := dispatchKind(evs, legacy)
	for _, ev := range evs {
		if ev.Kind == kind && ev.field("background") != true && slices.Contains(names, ev.str("namespace")) {
			c.fail(p, "expect_no_host_calls: %s was invoked but listed as forbidden", ev.str("namespace"))
		}
	}
}

func (c *checker) inboxChecks(t *Turn, items []engine.InboxItem) {
	ie := t.ExpectInbox
	if ie == nil {
		return
	}
	unread, attention := 0, 0
	var sev []string
	for _, it := range items {
		if it.Read {
			continue
		}
		unread++
		if it.Severity == "action_required" {
			attention++
		}
		sev = append(sev, it.Severity)
	}
	if ie.Unread != nil && unread != *ie.Unread {
		c.fail(ie.Pos, "expect_inbox.unread: got %d, want %d", unread, *ie.Unread)
	}
	if ie.NeedsAttention != nil && attention != *ie.NeedsAttention {
		c.fail(ie.Pos, "expect_inbox.needs_attention: got %d, want %d", attention, *ie.NeedsAttention)
	}
	// an empty severities list is not checked, as upstream
	if len(ie.Severities) > 0 {
		slices.Sort(sev)
		if want := slices.Sorted(slices.Values(ie.Severities)); !slices.Equal(sev, want) {
			// conformance storymut-inbox-want-order
			c.fail(ie.Pos, "expect_inbox.severities: got %v, want %v", sev, ie.Severities)
		}
	}
}

var terminalStatus = []string{engine.JobDone, engine.JobFailed, engine.JobCancelled, engine.JobAwaiting}

// jobChecks matches the jobs that became terminal during the turn
// (flow-format.md §3.11).
func (c *checker) jobChecks(t *Turn, before map[string]string, jobs []engine.JobInfo) {
	if t.ExpectJobs == nil {
		return
	}
	var fresh []engine.JobInfo
	// in upstream's order (jobs_order.go): an entry takes the first job
	// of its namespace in it
	for _, j := range listedJobs(jobs) {
		if j.Unstored || !slices.Contains(terminalStatus, j.Status) {
			continue
		}
		prev, seen := before[j.ID]
		if seen && (prev == engine.JobDone || prev == engine.JobFailed || prev == engine.JobCancelled || prev == j.Status) {
			continue
		}
		fresh = append(fresh, j)
	}
	// only expect_jobs' own malformed entries stop the matching, not a
	// failure of another assertion of the turn
	before0 := len(c.fails)
	for i, je := range t.ExpectJobs {
		if je.Namespace == "" {
			c.fail(je.Pos, "expect_jobs[%d]: namespace is required", i)
		}
		if !slices.Contains(terminalStatus, je.Status) {
			c.fail(je.Pos, "expect_jobs[%d]: status %q is not one of done|failed|cancelled|awaiting_input", i, je.Status)
		}
	}
	if len(c.fails) > before0 {
		return
	}
	if len(fresh) < len(t.ExpectJobs) {
		c.fail(t.at("expect_jobs"), "expect_jobs: expected %d jobs to terminate this turn, got %d", len(t.ExpectJobs), len(fresh))
		return
	}
	for i, je := range t.ExpectJobs {
		// each expectation takes the first job of its namespace not yet taken
		k := slices.IndexFunc(fresh, func(j engine.JobInfo) bool { return j.Namespace == je.Namespace })
		if k < 0 {
			var rest []string
			for _, j := range fresh {
				rest = append(rest, j.Namespace+"/"+j.Status)
			}
			c.fail(je.Pos, "expect_jobs[%d]: no newly-terminal job found with namespace=%q (remaining: %v)", i, je.Namespace, rest)
			continue
		}
		j := fresh[k]
		fresh = slices.Delete(fresh, k, k+1)
		if j.Status != je.Status {
			c.fail(je.Pos, "expect_jobs[%d]: namespace=%q got status=%q, want %q (job_id=%s, error=%q)", i, je.Namespace, j.Status, je.Status, j.ID, j.Error)
		}
	}
}

func jobStatuses(jobs []engine.JobInfo) map[string]string {
	m := make(map[string]string, len(jobs))
	for _, j := range jobs {
		m[j.ID] = j.Status
	}
	return m
}

// errorChecks is expect_error (flow-format.md §3.6); mode is the
// orchestrator's outcome of an accepted turn (clarify, completed, transitioned).
func (c *checker) errorChecks(ee *ErrorExpect, rej *engine.Rejection, legacy bool, mode string) {
	if rej == nil {
		if legacy {
			c.fail(ee.Pos, "expected error %q but got none", ee.Code)
		} else {
			c.fail(ee.Pos, "expected error %q but got none (mode=%s)", ee.Code, mode)
		}
		return
	}
	if rej.Code != ee.Code {
		if legacy {
			c.fail(ee.Pos, "expected error code %q but got %q", ee.Code, rej.Code)
		} else {
			c.fail(ee.Pos, "expect_error: code got %q, want %q", rej.Code, ee.Code)
		}
	}
	for _, a := range ee.AllowedContains {
		if slices.Contains(rej.Allowed, a) {
			continue
		}
		if legacy {
			c.fail(ee.Pos, "expect_error.allowed_contains: %q not in allowed list %v", a, rej.Allowed)
		} else {
			c.fail(ee.Pos, "expect_error.allowed_contains: %q not in %v", a, rej.Allowed)
		}
	}
	if legacy {
		for _, m := range ee.MissingSlots {
			if !slices.Contains(rej.MissingSlots, m) {
				c.fail(ee.Pos, "expect_error.missing_slots: %q not in %v", m, rej.MissingSlots)
			}
		}
	}
}

func kvMap(kvs []KV) map[string]any {
	m := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}
