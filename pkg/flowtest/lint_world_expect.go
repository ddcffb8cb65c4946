package flowtest

import (
	"fmt"
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
// lint-world-null). A dotted key, an expected template, a turn expecting
// an error, or a world a job may still change is not judged. It reports
// whether it warned.
func (l *fixtureLint) worldExpected(t *Turn) bool {
	w := l.world
	if w == nil || t.ExpectError != nil || l.jobMayLand() {
		return false
	}
	for _, kv := range t.ExpectWorld {
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
		l.warn(kv.Pos, ruleWorldKnown, "turns[%d].expect_world[%q]: %s, but after the turns before it and this one the fixture certainly holds %s there: the assertion fails on both engines; expect that value, or fix what should write it",
			t.Index, kv.Key, clip(show(kv.Value)), clip(show(got)))
		return true
	}
	return false
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
