package flowtest

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// An expect_host_calls entry (without times: 0) fails when no call of
// its handler the turn dispatches holds each listed arg equal, as the
// runner compares (flow-format.md §3.8: JSON bytes, so -0 differs from
// 0, conformance signed-zero-world); an expect_events entry of kind
// world.update fails when no write the turn logs holds its set: map.
// Where every value a call could send, or a key could be written, is a
// literal of the story, none matching is certain (conformance
// calls-never):
//
//   - expect_host_calls on the legacy path, which dispatches no call;
//   - a handler no invoke of the folded story names (an iface.<name>.<op>
//     read as the fixture's host_bindings bind it, else as its default:
//     conformance calls-never-bound);
//   - args no such call can send: for each call, some listed key it
//     never carries (args.call is its id:) or carries as a literal of
//     another value (a with: literal goes out as written: text is never
//     a number), or the call is never counted (a background call, one in
//     a job's on_complete chain: flow-format.md §3.8);
//   - a world.update set: value the key never holds (worldCandidates,
//     as flow-world-never judges an expect_world).
//
// Not judged: a templated invoke, with:, id: or key, an agent verb
// (host.agent.*: the agent pipeline builds its args), an expected null
// (a missing arg reads null), a story with phases or proposals, one
// that did not fold.

// callsNever warns at each such entry of the fixture's turns.
func (l *fixtureLint) callsNever() {
	for _, t := range l.fx.Turns {
		if t.ExpectError != nil {
			continue // not checked (flow-not-checked)
		}
		for i, hc := range t.ExpectHostCalls {
			l.hostCallNever(t, i, hc)
		}
		for i, ev := range t.ExpectEvents {
			l.eventNever(t, i, ev)
		}
	}
}

// hostCallNever warns at expect_host_calls[i] of t when no call can
// match it.
func (l *fixtureLint) hostCallNever(t *Turn, i int, hc HostCallExpect) {
	if hc.Times != nil && *hc.Times == 0 {
		return // passes when none matches
	}
	label := fmt.Sprintf("turns[%d].expect_host_calls[%d]", t.Index, i)
	if !l.fx.Orchestrated() {
		l.warn(hc.Pos, ruleCallNever, "%s: %q, but this fixture runs on the legacy path (no host_handlers, host_cassette or clock key, and no use_orchestrator: true), which dispatches no call: the assertion fails on both engines; add use_orchestrator: true, or remove the assertion", label, hc.Handler)
		return
	}
	h := hc.Handler
	if h == "" || strings.HasPrefix(h, "host.agent.") || strings.HasPrefix(h, "iface.") || story.IsTemplated(h) {
		return
	}
	binds, ok := l.ix.fixtureBinds(l.fx)
	if !ok {
		return
	}
	calls, ok := l.ix.callsOf(h, binds)
	if !ok {
		return
	}
	if len(calls) == 0 {
		l.warn(hc.Pos, ruleCallNever, "%s: %q, but no invoke of the story names that handler (it calls: %s): the assertion fails on both engines; name a handler the story calls, or fix the invoke: that should call it", label, h, listCalls(l.ix.fixtureCalls(l.fx)))
		return
	}
	var why []string
	for _, c := range calls {
		miss, ok := c.misses(hc.Args)
		if !ok {
			return // this call may match
		}
		why = append(why, miss)
	}
	l.warn(hc.Pos, ruleCallNever, "%s: %q with args %s, but no call of it the story makes can send them (%s; the runner compares values as JSON, so -0 differs from 0): the assertion fails on both engines; expect the args a call sends, or fix its with:", label, h, clip(show(kvMap(hc.Args))), clip(strings.Join(why, "; ")))
}

// litCall is one invoke of a handler: its with: as written, its id:, and
// where it stands.
type litCall struct {
	with  map[string]any
	id    string
	where string
	// unseen says why the runner never counts it ("": it may)
	unseen string
}

// callsOf is every invoke of the folded story whose dispatched name,
// under the fixture's interface bindings binds (fixtureBinds), is h; ok
// is false when some invoke may dispatch under h with args not written
// as literals (a templated name), or the story's calls are not all seen.
func (ix *storyIndex) callsOf(h string, binds map[string]string) ([]litCall, bool) {
	if ix.unfolded || ix.story.Phases != nil || len(ix.story.Proposals) > 0 {
		return nil, false
	}
	var out []litCall
	var w story.EffectWalk
	for p := range w.States(ix.story.AllStates()...) {
		e := p.Effect
		if e.Invoke == "" {
			continue
		}
		if story.IsTemplated(e.Invoke) {
			return nil, false
		}
		if ix.boundWith(e.Invoke, binds) == h {
			c := litCall{with: e.With, id: e.ID(), where: p.String()}
			switch {
			case e.Background():
				c.unseen = "is a background call, which the runner never counts"
			case p.Within("on_complete"):
				c.unseen = "runs in a job's completion turn, whose calls are in no turn's events"
			}
			out = append(out, c)
		}
	}
	return out, true
}

// misses is why c can never send args holding want (the first key it
// cannot match, as a message fragment); ok is false when it may.
func (c litCall) misses(want []KV) (string, bool) {
	if c.unseen != "" {
		return c.where + " " + c.unseen, true
	}
	if slices.ContainsFunc(slices.Collect(maps.Keys(c.with)), story.IsTemplated) {
		return "", false // a templated key may be any of them
	}
	for _, kv := range want {
		if kv.Value == nil || hasTemplate(kv.Value) {
			continue // a missing arg reads null
		}
		v, present := c.with[kv.Key]
		if kv.Key == "call" {
			v, present = c.id, c.id != ""
		}
		switch {
		case !present:
			return fmt.Sprintf("%s never sends %s", c.where, kv.Key), true
		case hasTemplate(v):
		case neverSent(v, kv.Value):
			return fmt.Sprintf("%s sends %s: %s", c.where, kv.Key, clip(show(jsonvalue.Normalize(v)))), true
		}
	}
	return "", false
}

// neverEqual reports a literal got that the runner never finds equal to
// want, nor prints as want prints.
func neverEqual(got, want any) bool {
	g, w := jsonvalue.Normalize(got), jsonvalue.Normalize(want)
	return !worldEqual(g, w) && fmt.Sprint(g) != fmt.Sprint(w)
}

// neverSent reports a literal with: value got that the runner never
// finds equal to want: neverEqual, or text against a number or bool (a
// literal goes out as written, and JSON tells the two apart).
func neverSent(got, want any) bool {
	g, w := jsonvalue.Normalize(got), jsonvalue.Normalize(want)
	if worldEqual(g, w) {
		return false
	}
	_, gText := g.(string)
	_, wText := w.(string)
	return gText != wText || fmt.Sprint(g) != fmt.Sprint(w)
}

// eventNever warns at expect_events[i] of t, a world.update whose set:
// map some key of it never holds.
func (l *fixtureLint) eventNever(t *Turn, i int, ev EventExpect) {
	if ev.Kind != "world.update" {
		return
	}
	k := slices.IndexFunc(ev.Effect, func(kv KV) bool { return kv.Key == "set" })
	if k < 0 {
		return
	}
	set, isMap := jsonvalue.Normalize(ev.Effect[k].Value).(map[string]any)
	vals := l.ix.literalWrites()
	if !isMap || vals == nil {
		return
	}
	for _, key := range slices.Sorted(maps.Keys(set)) {
		want := set[key]
		if strings.Contains(key, ".") || want == nil || hasTemplate(want) {
			continue
		}
		cands, ok := l.worldCandidates(vals, key)
		if !ok || slices.ContainsFunc(cands, func(c worldValue) bool {
			return c.v != jobIDValue && (!neverEqual(c.v, want) || engine.SetCoerces(l.ix.story, key, c.v))
		}) {
			continue
		}
		l.warn(ev.Pos, ruleCallNever, "turns[%d].expect_events[%d]: a world.update setting %s to %s, but no write of the story or the fixture gives %q that value: they only ever set it to %s (the runner compares values as JSON, so -0 differs from 0): the assertion fails on both engines; expect a value the key takes, or fix the set: that should write it",
			t.Index, i, key, clip(show(want)), key, candidateList(cands))
		return
	}
}
