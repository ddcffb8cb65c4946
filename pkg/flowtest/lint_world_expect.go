package flowtest

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// worldExpected warns at t's first expect_world value the world the
// fixture certainly has after t differs from, as the runner compares
// (or prints) it: the assertion fails on both engines; an expected null
// too, against a value the key certainly holds (conformance
// lint-world-null). So for expect_world_full, which fails too where the
// world certainly holds a key it does not list (worldFullUnlisted). A
// dotted key, an expected template, a turn expecting an error, or a
// world a job may still change is not judged. It reports whether it
// warned.
func (l *fixtureLint) worldExpected(t *Turn) bool {
	w := l.world
	if w == nil || t.ExpectError != nil || l.jobMayLand() {
		return false
	}
	return l.worldDiffers(t, "expect_world", t.ExpectWorld) || t.HasWorldFull && (l.worldDiffers(t, "expect_world_full", t.ExpectWorldFull) || l.worldFullUnlisted(t))
}

// worldDiffers warns at the first of kvs, t's key named label, whose
// value the known world certainly holds otherwise (worldExpected).
func (l *fixtureLint) worldDiffers(t *Turn, label string, kvs []KV) bool {
	w := l.world
	for _, kv := range kvs {
		if strings.Contains(kv.Key, ".") || hasTemplate(kv.Value) {
			continue
		}
		got, ok := w.get(kv.Key)
		if ok && l.fx.Orchestrated() {
			got, ok = seededView(kv.Key, got)
		}
		want := jsonvalue.Normalize(kv.Value)
		if !ok || worldEqual(got, want) || fmt.Sprint(got) == fmt.Sprint(want) {
			continue
		}
		l.warn(kv.Pos, ruleWorldKnown, "turns[%d].%s[%q]: %s, but after the turns before it and this one the fixture certainly holds %s there: the assertion fails on both engines; expect that value, or fix what should write it",
			t.Index, label, kv.Key, clip(show(kv.Value)), clip(show(got)))
		return true
	}
	return false
}

// worldFullUnlisted warns at t's expect_world_full when it leaves out a
// key the rig's world certainly holds after t: upstream fails it
// (unexpected key in world). Certainly held are the keys the rig seeds
// (last_error, write_mode_scope, the costs: written, never taken out),
// on the orchestrator path session_id and ide (seeded at the start and
// before each user turn), and a key the world starts with that nothing
// may write (a written one may be taken out again when a replay drops
// what set it): a declared key with a default, and one an initial_world
// or a world_override puts there, undeclared or null, on either path (an
// override stays even on a turn whose intent is refused; conformance
// lint-world-full). It reports whether it warned.
func (l *fixtureLint) worldFullUnlisted(t *Turn) bool {
	w, orch := l.world, l.fx.Orchestrated()
	listed := map[string]bool{}
	for _, kv := range t.ExpectWorldFull {
		listed[kv.Key] = true
	}
	held := slices.Sorted(maps.Keys(rigSeeded))
	if orch {
		held = append(held, story.WorldSessionID, story.WorldIDE)
	}
	for _, k := range slices.Sorted(maps.Keys(w.vals)) {
		if !w.all && !w.written[k] && !w.dirty[k] && (w.decls[k] != nil || w.seeded[k]) {
			held = append(held, k)
		}
	}
	for _, k := range held {
		if listed[k] {
			continue
		}
		l.warn(t.valueAt("expect_world_full"), ruleWorldKnown, "turns[%d].expect_world_full leaves out %q, a key the fixture's world certainly holds after this turn (%s): the assertion fails on both engines (unexpected key %q in world); list it with its value, or use expect_world",
			t.Index, k, w.heldWhy(k, orch), k)
		return true
	}
	return false
}

// heldWhy says, for a message, why the world certainly holds k.
func (w *knownWorld) heldWhy(k string, orch bool) string {
	switch {
	case rigSeeded[k] != nil:
		return "the flow rig seeds it at the start, and no run takes it out"
	case orch && (k == story.WorldSessionID || k == story.WorldIDE):
		return "the orchestrator path seeds it before each user turn"
	case w.seeded[k]:
		return "an initial_world or world_override put it there, and nothing writes it"
	}
	return "the story declares it with a default, and nothing writes it"
}

// worldAsserted makes each text or true/false value t's expect_world
// asserts of a declared top-level key the one the known world holds
// after t: where the fixture goes on, the assertion passed, and upstream
// compares such values exactly (a text never equals a number or a bool);
// where it failed, the fixture fails there and nothing after it is
// judged on a fixture that passes (as expectedRest rests at the state an
// expect_state names). A world lost whole is narrowed to its written
// keys' each being uncertain first; one any key may be written in is not.
func (l *fixtureLint) worldAsserted(t *Turn) {
	w := l.world
	if w == nil || t.ExpectError != nil {
		return
	}
	for _, kv := range t.ExpectWorld {
		switch kv.Value.(type) {
		case string, bool:
		default:
			continue
		}
		if strings.Contains(kv.Key, ".") || hasTemplate(kv.Value) || w.decls[kv.Key] == nil || slices.Contains(story.InjectedWorld(), kv.Key) {
			continue
		}
		if w.lost {
			if w.all {
				return
			}
			for k := range w.written {
				w.dirty[k] = true
			}
			w.lost = false
		}
		w.set(kv.Key, kv.Value)
	}
}

// dropKnownBesideNever drops, of the findings from index from on, each
// flow-world-known at a value flow-world-never also warned at: that one
// says more (every value the key may hold).
func (l *fixtureLint) dropKnownBesideNever(from int) {
	type at struct {
		file      string
		line, col int
	}
	never := map[at]bool{}
	for _, d := range l.ds[from:] {
		if d.Rule == ruleWorldNever.ID {
			never[at{d.File, d.Line, d.Col}] = true
		}
	}
	if len(never) == 0 {
		return
	}
	l.ds = slices.Concat(l.ds[:from], slices.DeleteFunc(slices.Clone(l.ds[from:]), func(d diag.Diagnostic) bool {
		return d.Rule == ruleWorldKnown.ID && never[at{d.File, d.Line, d.Col}]
	}))
}
