package flowtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	storylint "kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// rejectedFindings is ruleFindings of flow-rejected.
func rejectedFindings(t *testing.T, files map[string]string, src string) []diag.Diagnostic {
	t.Helper()
	return ruleFindings(t, ruleRejected, files, src)
}

const rejectedApp = `app: {id: rej}
root: lobby
intents:
  pick:
    slots:
      color: {type: string, values: [red, blue]}
  need:
    slots:
      who: {type: string, required: true}
  go: {}
  orphan: {}
states:
  lobby:
    on:
      pick: [{target: lobby}]
      need: [{target: lobby}]
      go: [{target: done}]
  done: {terminal: true}
`

// Each turn the existing engine rejects (probed there: every one fails
// its fixture with "unexpected validation error") is warned at the
// intent or the slot value, naming the code and the fix; the same turns
// expecting the rejection, a fine slot value, and a missing slot on the
// orchestrator path (a clarification there, which fails nothing) are not.
// A slot a {{ }} template fills is judged on the engine's own machine,
// run beside the walk from the first turn (lint_par_replay.go; probed:
// {{ world.c }}, unset, is rejected INVALID_SLOT_VALUE upstream).
func TestLintRejected(t *testing.T) {
	fx := `test_kind: flow
initial_state: lobby
turns:
  - intent: {name: pick, slots: {color: green}}
  - intent: {name: need}
  - intent: {name: need, slots: {who: null}}
  - intent: {name: orphan}
  - intent: {name: pick, slots: {color: red}}
  - intent: {name: go}
    expect_state: done
  - intent: {name: pick, slots: {color: red}}
---
test_kind: flow
initial_state: lobby
turns:
  - intent: {name: pick, slots: {color: green}}
    expect_error: {code: INVALID_SLOT_VALUE}
  - intent: {name: orphan}
    expect_error: {code: INTENT_NOT_ALLOWED_IN_STATE}
  - intent: {name: go}
    expect_state: done
  - intent: {name: pick, slots: {color: red}}
    expect_error: {code: INTENT_NOT_ALLOWED_IN_STATE}
---
test_kind: flow
use_orchestrator: true
initial_state: lobby
turns:
  - intent: {name: need}
  - intent: {name: pick, slots: {color: "{{ world.c }}"}}
---
test_kind: flow
initial_state: lobby
turns:
  - intent: {name: go}
  - intent: {name: pick, slots: {color: red}}
`
	got := rejectedFindings(t, map[string]string{"app.yaml": rejectedApp}, fx)
	want := []struct {
		line, col int
		text      string
	}{
		{4, 34, `slot "color" value "green" is not one of the intent's values: [red blue]: the turn is rejected INVALID_SLOT_VALUE`},
		{5, 20, `intent "need" leaves out its required slot "who" (absent or null): on this legacy-path fixture the turn is rejected MISSING_SLOTS`},
		{6, 20, `turns[2]: intent "need" leaves out its required slot "who"`},
		{7, 20, `intent "orphan" is declared, but no state of the story takes it`},
		{11, 20, `turns[6]: intent "pick" is not taken at "done", where turns[5].expect_state rests (it and its ancestors take: none)`},
		{30, 20, `turns[1]: intent "pick", fired at "lobby", is rejected INVALID_SLOT_VALUE by the engine's own machine`},
		{36, 20, `turns[1]: intent "pick" is not taken at "done", where turns[0] "go" leads (its first arm, unguarded, moves "lobby" to "done") (it and its ancestors take: none)`},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d: %v", len(got), len(want), got)
	}
	for _, w := range want {
		if !hasDiag(got, diag.Warning, w.line, w.col, w.text) {
			t.Errorf("no warning at %d:%d containing %q in %v", w.line, w.col, w.text, got)
		}
	}
}

// The state a turn starts in is judged only where it is certain: not
// after a turn that advances the clock where a timeout may move it, not
// after a move under a parallel state, not in a story whose background job's on_complete can
// move it between turns, not where a "*" arm takes every intent, and not
// past an arm that may not be the one taken or may move elsewhere.
func TestLintRejectedUncertainState(t *testing.T) {
	fx := `test_kind: flow
initial_state: lobby
turns:
  - intent: {name: go}
    advance_clock: 1s
  - intent: {name: pick, slots: {color: red}}
`
	// the timeout fires back to lobby, where pick is taken (the run from
	// the first turn follows it)
	timed := strings.Replace(rejectedApp, "  done: {terminal: true}\n", "  done:\n    timeout: {after: 1s, target: lobby}\n", 1)
	if got := rejectedFindings(t, map[string]string{"app.yaml": timed}, fx); len(got) != 0 {
		t.Errorf("advance_clock: %v", got)
	}
	wild := strings.Replace(rejectedApp, "  done: {terminal: true}\n", "  done:\n    on: {\"*\": [{target: lobby}]}\n", 1)
	fx2 := "test_kind: flow\ninitial_state: lobby\nturns:\n  - intent: {name: go}\n    expect_state: done\n  - intent: {name: orphan}\n"
	if got := rejectedFindings(t, map[string]string{"app.yaml": wild}, fx2); len(got) != 0 {
		t.Errorf("wildcard: %v", got)
	}
	job := strings.Replace(rejectedApp, "      go: [{target: done}]\n", "      go:\n        - target: done\n          effects:\n            - invoke: host.run\n              background: true\n              with: {cmd: \"true\"}\n              on_complete: [{target: lobby}]\n", 1)
	// (on the orchestrator path: the legacy path runs no job and makes no
	// call, so there the state is certain: lint_still_test.go)
	fx3 := "test_kind: flow\nuse_orchestrator: true\ninitial_state: lobby\nturns:\n  - intent: {name: go}\n    expect_state: done\n  - intent: {name: pick, slots: {color: red}}\n"
	if got := rejectedFindings(t, map[string]string{"app.yaml": job}, fx3); len(got) != 0 {
		t.Errorf("background on_complete: %v", got)
	}
	// the state is followed only through an intent's first arm when it is
	// unguarded and only sets: not a guarded arm, a call, or an
	// orchestrator start whose on_enter may move it
	step := strings.Replace(rejectedApp, "      go: [{target: done}]\n", "      go:\n        - when: \"world.n > 0\"\n          target: lobby\n        - target: done\n", 1)
	fx5 := "test_kind: flow\nuse_orchestrator: true\ninitial_state: lobby\nturns:\n  - intent: {name: go}\n  - intent: {name: pick, slots: {color: red}}\n"
	if got := rejectedFindings(t, map[string]string{"app.yaml": step}, fx5); len(got) != 0 {
		t.Errorf("guarded first arm: %v", got)
	}
	call := strings.Replace(rejectedApp, "      go: [{target: done}]\n", "      go:\n        - target: done\n          effects: [{invoke: host.run, with: {cmd: \"true\"}, on_error: lobby}]\n", 1)
	if got := rejectedFindings(t, map[string]string{"app.yaml": call}, fx5); len(got) != 0 {
		t.Errorf("a call in the arm: %v", got)
	}
	entry := strings.Replace(rejectedApp, "  done: {terminal: true}\n", "  done: {terminal: true}\n  hall:\n    on_enter: [{emit_intent: back}]\n    on: {back: [{target: lobby}]}\n", 1)
	entry = strings.Replace(entry, "  orphan: {}\n", "  orphan: {}\n  back: {}\n", 1)
	fx6 := "test_kind: flow\nuse_orchestrator: true\ninitial_state: hall\nturns:\n  - intent: {name: pick, slots: {color: red}}\n"
	// the first turn fires at the start all the same (its emits are
	// walked only after a turn: TestLintFirstRest); the second is not judged
	if got := rejectedFindings(t, map[string]string{"app.yaml": entry}, fx6); len(got) != 1 || !strings.Contains(got[0].Message, `turns[0]: intent "pick" is not taken at "hall"`) {
		t.Errorf("orchestrator start with on_enter: %v", got)
	}
	fx7 := "test_kind: flow\nuse_orchestrator: true\ninitial_state: hall\nturns:\n  - intent: {name: back}\n  - intent: {name: pick, slots: {color: red}}\n"
	if got := rejectedFindings(t, map[string]string{"app.yaml": entry}, fx7); len(got) != 0 {
		t.Errorf("orchestrator start with on_enter, second turn: %v", got)
	}
	par := `app: {id: par}
root: p
intents: {a: {}, b: {}}
states:
  p:
    type: parallel
    states:
      r1:
        type: compound
        initial: x
        states:
          x: {on: {a: [{target: p.r1.x}]}}
      r2:
        type: compound
        initial: y
        states:
          y: {on: {b: [{target: p.r2.y}]}}
`
	// a first turn started on a plain path under a parallel state fires
	// there (conformance lint-par-in: b, the other region's, is refused);
	// where it leads is not followed
	fx4 := "test_kind: flow\ninitial_state: p.r1.x\nturns:\n  - intent: {name: a}\n  - intent: {name: b}\n"
	if got := rejectedFindings(t, map[string]string{"app.yaml": par}, fx4); len(got) != 0 {
		t.Errorf("parallel: %v", got)
	}
}

// An imported child's intents are judged under their folded names, and
// a bare spelling (pick for kid__pick) is resolved as the engines resolve
// it: a missing slot, a value outside values: and a parent intent fired
// in the child's state are warned, a bare spelling the child takes is not.
func TestLintRejectedImported(t *testing.T) {
	files := map[string]string{
		"kid/app.yaml": `app: {id: kid}
root: enc
intents:
  check:
    slots:
      why: {type: string, required: true}
  pick:
    slots:
      c: {values: [a, b]}
exits: {done: {}}
states:
  enc:
    on:
      check: [{target: "@exit:done"}]
      pick: [{target: enc}]
`,
		"app.yaml": `app: {id: top}
root: start
intents: {go: {}, stay: {}}
imports:
  kid:
    source: ./kid
    entry: enc
    exits: {done: {to: start}}
states:
  start:
    on:
      go: [{target: kid}]
      stay: [{target: start}]
`,
	}
	fx := `test_kind: flow
initial_state: start
turns:
  - intent: {name: go}
    expect_state: kid.enc
  - intent: {name: kid__check}
  - intent: {name: pick, slots: {c: z}}
    expect_state: kid.enc
---
test_kind: flow
initial_state: start
turns:
  - intent: {name: go}
  - intent: {name: stay}
---
test_kind: flow
initial_state: start
turns:
  - intent: {name: go}
    expect_state: kid.enc
  - intent: {name: pick, slots: {c: a}}
    expect_state: kid.enc
  - intent: {name: check, slots: {why: x}}
    expect_state: start
`
	got := rejectedFindings(t, files, fx)
	if len(got) != 3 || !hasDiag(got, diag.Warning, 6, 20, `intent "kid__check" leaves out its required slot "why"`) ||
		!hasDiag(got, diag.Warning, 7, 34, `slot "c" value "z" is not one of the intent's values: [a b]`) ||
		!hasDiag(got, diag.Warning, 14, 20, `intent "stay" is not taken at "kid.enc", where turns[0] "go" leads (its first arm, unguarded, moves "start" to "kid.enc") (it and its ancestors take: kid__check, kid__pick)`) {
		t.Fatalf("%v", got)
	}
}

// A slot value written as a string where the intent types the slot int,
// float or bool is warned at the value, with the unquoted fix when it
// parses; a number, a template, a string on a string slot, and a slot
// two declarations type differently are not.
func TestLintSlotType(t *testing.T) {
	app := `app: {id: st}
root: a
intents:
  count:
    slots:
      k: {type: int}
      f: {type: float}
      b: {type: boolean}
      s: {type: string}
      x: {type: int}
states:
  a:
    on:
      count:
        - when: slots.k > 2
          target: z
  z:
    intents:
      count:
        slots:
          k: {type: integer}
          f: {type: number}
          b: {type: bool}
          x: {type: string}
    on:
      count: [{target: a}]
`
	fx := `test_kind: flow
initial_state: a
turns:
  - intent: {name: count, slots: {k: "5", f: abc, b: "yes", s: "7", x: "1"}}
  - intent: {name: count, slots: {k: 5, f: 1.5, b: true, s: x}}
  - intent: {name: count, slots: {k: "{{ world.n }}"}}
`
	var got []diag.Diagnostic
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(app), 0o644); err != nil {
		t.Fatal(err)
	}
	st, ds := storylint.Load(filepath.Join(dir, "app.yaml"), story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	fxs, pds := parse("flows/r.yaml", []byte(fx))
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	for _, d := range lint(st, fxs) {
		if d.Rule == ruleSlotType.ID {
			got = append(got, d)
		}
	}
	if len(got) != 3 || !hasDiag(got, diag.Warning, 4, 35, `slot "k" value "5" is a string, and the intent declares k type: int; neither engine converts it`) ||
		!hasDiag(got, diag.Warning, 4, 35, "write 5 without quotes") ||
		!hasDiag(got, diag.Warning, 4, 43, "write a number without quotes") ||
		!hasDiag(got, diag.Warning, 4, 51, "as a bool fails the turn") {
		t.Fatalf("%v", got)
	}
}

// An expect_state the turn certainly misses (from a known state, the
// intent's first arm is unguarded and moves elsewhere) is warned at the
// expect_state with the state it reaches; one it meets, one after a
// guarded arm and a state the story lacks are not. A stay at a state whose
// on_enter emits, which the walk leaves unjudged, is judged on the
// engine's own machine (probed: the self-stay at hall rests at hall).
func TestLintWrongState(t *testing.T) {
	app := strings.Replace(rejectedApp, "  done: {terminal: true}\n", "  done: {terminal: true}\n  hall:\n    on_enter: [{emit_intent: back}]\n    on:\n      back: [{target: lobby}]\n      pick: [{target: .}]\n", 1)
	app = strings.Replace(app, "  orphan: {}\n", "  orphan: {}\n  back: {}\n", 1)
	app = strings.Replace(app, "      need: [{target: lobby}]\n", "      need:\n        - when: \"world.n > 0\"\n          target: done\n        - target: lobby\n", 1)
	fx := `test_kind: flow
initial_state: lobby
turns:
  - intent: {name: pick, slots: {color: red}}
    expect_state: lobby
  - intent: {name: go}
    expect_state: lobby
---
test_kind: flow
initial_state: lobby
turns:
  - intent: {name: need, slots: {who: me}}
    expect_state: done
  - intent: {name: go}
    expect_state: nowhere
---
test_kind: flow
initial_state: hall
turns:
  - intent: {name: pick, slots: {color: red}}
    expect_state: lobby
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(app), 0o644); err != nil {
		t.Fatal(err)
	}
	st, ds := storylint.Load(filepath.Join(dir, "app.yaml"), story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	fxs, pds := parse("flows/r.yaml", []byte(fx))
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	var got []diag.Diagnostic
	for _, d := range lint(st, fxs) {
		if d.Rule == ruleWrongState.ID {
			got = append(got, d)
		}
	}
	if len(got) != 2 || !hasDiag(got, diag.Warning, 21, 19, `turns[0].expect_state: "lobby", but the turn's intent "pick", fired at "hall", rests at "hall" on the engine's own machine`) || !hasDiag(got, diag.Warning, 7, 19, `turns[1].expect_state: "lobby", but the turn's intent "go", fired at "lobby" (where turns[0].expect_state rests), takes an unguarded first arm that moves it to "done": the assertion fails on both engines; expect_state: done`) {
		t.Fatalf("%v", got)
	}
}

// An arm's emit: list outside a parallel state is ignored by both
// engines, so the arm is followed (probed: expect_state lobby fails,
// got hall; a second go is rejected INTENT_NOT_ALLOWED_IN_STATE at hall).
func TestLintFlatEmitIgnored(t *testing.T) {
	files := map[string]string{"app.yaml": `app: {id: emitflat}
root: lobby
intents:
  go: {}
  back: {}
states:
  lobby:
    on:
      go:
        - target: hall
          emit: [back]
  hall:
    on:
      back: [{target: lobby}]
`}
	got := ruleFindings(t, ruleWrongState, files, "test_kind: flow\ninitial_state: lobby\nturns:\n  - intent: {name: go}\n    expect_state: lobby\n")
	if len(got) != 1 || !strings.Contains(got[0].Message, `moves it to "hall"`) {
		t.Errorf("wrong state: got %v", got)
	}
	got = rejectedFindings(t, files, "test_kind: flow\ninitial_state: lobby\nturns:\n  - intent: {name: go}\n  - intent: {name: go}\n")
	if len(got) != 1 || !strings.Contains(got[0].Message, `not taken at "hall"`) {
		t.Errorf("rejected: got %v", got)
	}
}

// TestLintUndeclaredIntent: an intent no state declares or takes, in a
// story with no "*" arm, is refused wherever it fires (conformance
// lint-undeclared-intent).
func TestLintUndeclaredIntent(t *testing.T) {
	nope := `turns[0]: intent "nope" is declared nowhere in the story and no state takes it (no on: nope arm, and no "*"): the turn is rejected INTENT_NOT_ALLOWED_IN_STATE on both engines`
	lintGolden(t, "../engine/testdata/conformance/lint-undeclared-intent", map[string]string{
		"a_legacy.yaml":            nope,
		"b_orch.yaml":              nope,
		"c_orch_root.yaml":         nope,
		"d_after_terminal.yaml":    `turns[1]: intent "nope" is declared nowhere in the story`,
		"e_expect_other_code.yaml": `turns[0].expect_error: code GUARD_FAILED, but intent "nope" is declared nowhere in the story and no state takes it (no "*" arm): both engines refuse it INTENT_NOT_ALLOWED_IN_STATE`,
		"f_expect_any.yaml":        `turns[0].expect_error names no code`,
		"g_unknown_state.yaml":     nope,
		"h_clock.yaml":             nope,
		"i_input.yaml":             nope,
		"j_empty_name.yaml":        unwarned,
		"k_hash.yaml":              `turns[0]: intent "go.x" is declared nowhere in the story`,
	}, ruleRejected, ruleErrorCode)
}

// TestLintUndeclaredWildcard: a "*" arm takes an undeclared intent
// (probed: upstream passes nope at a state with "*": [{target: a}]), so
// no verdict is given, and flow-unknown-intent says so.
func TestLintUndeclaredWildcard(t *testing.T) {
	app := filepath.Join(t.TempDir(), "app.yaml")
	src := `app: {id: uw}
intents: {go: {}}
root: a
states:
  a:
    view: A
    on:
      go: [{target: b}]
  b:
    view: B
    on:
      "*": [{target: a}]
`
	if err := os.WriteFile(app, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	st, ds := storylint.Load(app, story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	fxs, _ := parse("flows/w.yaml", []byte("test_kind: flow\ninitial_state: b\nuse_orchestrator: true\nturns:\n  - intent: {name: nope}\n    expect_state: a\n"))
	got := lint(st, fxs)
	for _, d := range got {
		if d.Rule == ruleRejected.ID {
			t.Fatalf("a verdict on an intent a \"*\" arm takes: %v", d)
		}
	}
	if !hasDiag(got, diag.Warning, 5, 20, `only a "*" arm can take it`) {
		t.Fatalf("%v", got)
	}
}

// TestLintErrorCodeEmpty: an expect_error naming no code always fails,
// the code "" compared too (conformance lint-error-code-empty).
func TestLintErrorCodeEmpty(t *testing.T) {
	const none = `turns[0].expect_error names no code, so the turn always fails`
	lintGolden(t, "../engine/testdata/conformance/lint-error-code-empty", map[string]string{
		"a_orch_rejected.yaml":            none,
		"b_legacy_rejected.yaml":          none,
		"c_legacy_accepted.yaml":          none,
		"d_orch_accepted.yaml":            none,
		"e_allowed_only.yaml":             none,
		"f_code_null.yaml":                none,
		"g_code_empty.yaml":               none,
		"h_legacy_declared_rejected.yaml": none,
		"i_null.yaml":                     "",
		"j_guard_hint_only.yaml":          none,
	}, ruleErrorCode)
}

// TestLintRejectedRest: a turn expecting INTENT_NOT_ALLOWED_IN_STATE for
// an intent nothing where the fixture rests takes leaves it there on the
// orchestrator path too, so the next turn is judged from there
// (conformance lint-rejected-rest).
func TestLintRejectedRest(t *testing.T) {
	const kept = `(where the fixture starts (initial_state), and turns[0] %q is rejected there as it expects, moving nothing)`
	lintGolden(t, "../engine/testdata/conformance/lint-rejected-rest", map[string]string{
		"a_rejected_then_wrong.yaml":         `turns[1].expect_state: "hall", but the turn's intent "go", fired at "hall" ` + fmt.Sprintf(kept, "back"),
		"b_rejected_then_right.yaml":         "",
		"c_rejected_then_refused.yaml":       `turns[1]: intent "back" is not taken at "hall", where the fixture starts (initial_state), and turns[0] "back" is rejected there`,
		"d_guard_failed_then_wrong.yaml":     `turns[1].expect_state: "room", but the turn's intent "back", fired at "room" (where the fixture starts (initial_state), and turns[0] "open" is rejected there as it expects, moving nothing)`,
		"e_undeclared_then_wrong.yaml":       `turns[1].expect_state: "vault", but the turn's intent "go", fired at "hall" ` + fmt.Sprintf(kept, "nowhere"),
		"f_taken_expect_rejection.yaml":      `turns[0].expect_error: code INTENT_NOT_ALLOWED_IN_STATE, but intent "go" is taken at "hall"`,
		"g_legacy_then_wrong.yaml":           `turns[1].expect_state: "hall", but the turn's intent "go", fired at "hall"`,
		"h_declared_untaken_then_right.yaml": "",
	}, ruleRejected, ruleWrongState, ruleErrorCode)
}

// TestLintExpectTaken: a turn expecting INTENT_NOT_ALLOWED_IN_STATE for an
// intent the state the fixture certainly rests in takes fails; one
// expecting GUARD_FAILED where every arm is certainly false moves nothing
// (conformance lint-expect-taken).
func TestLintExpectTaken(t *testing.T) {
	const taken = `turns[%d].expect_error: code INTENT_NOT_ALLOWED_IN_STATE, but intent %q is taken at %q`
	lintGolden(t, "../engine/testdata/conformance/lint-expect-taken", map[string]string{
		"a_taken_at_start.yaml":                 fmt.Sprintf(taken, 0, "go", "hall") + `, where the fixture starts (initial_state) (it and its ancestors take: go, name, finish)`,
		"b_legacy_taken_at_start.yaml":          fmt.Sprintf(taken, 0, "go", "hall"),
		"c_taken_by_ancestor.yaml":              fmt.Sprintf(taken, 0, "wave", "wing.room"),
		"d_wildcard_takes.yaml":                 fmt.Sprintf(taken, 0, "go", "lounge"),
		"e_guard_failed_instead.yaml":           fmt.Sprintf(taken, 0, "open", "wing.room"),
		"f_clarification_instead.yaml":          fmt.Sprintf(taken, 0, "name", "hall"),
		"g_untaken_after_move_passes.yaml":      "",
		"h_taken_after_move.yaml":               fmt.Sprintf(taken, 1, "back", "wing.room") + `, where turns[0] "go" leads`,
		"i_terminal_takes_own.yaml":             fmt.Sprintf(taken, 1, "again", "done"),
		"j_legacy_missing_slots_instead.yaml":   fmt.Sprintf(taken, 0, "name", "hall"),
		"k_untaken_at_start_passes.yaml":        "",
		"l_guard_failed_expected_passes.yaml":   "",
		"m_guard_failed_then_wrong.yaml":        `turns[2].expect_state: "wing.room", but the turn's intent "back", fired at "wing.room" (where turns[0] "go" leads (its first arm, unguarded, moves "hall" to "wing.room"), and turns[1] "open" is rejected there as it expects, moving nothing)`,
		"n_guard_failed_then_right_passes.yaml": "",
		"o_legacy_guard_failed_then_world.yaml": `turns[1].expect_world["n"]: 1, but after the turns before it and this one the fixture certainly holds 0 there`,
	}, ruleRejected, ruleWrongState, ruleErrorCode, ruleWorldKnown)
}

// TestLintExpectAccepted: an expect_error turn whose intent is certainly
// accepted where the fixture certainly rests fails, and so does
// MISSING_SLOTS on the orchestrator path (a clarification there)
// (conformance lint-expect-accepted, expect-error-mode-completed,
// expect-error-mode-capped).
func TestLintExpectAccepted(t *testing.T) {
	const accepted = `turns[%d].expect_error: code %s, but intent %q, fired at %q (where %s), takes %s of %q: neither engine rejects it`
	const start = "the fixture starts (initial_state)"
	lintGolden(t, "../engine/testdata/conformance/lint-expect-accepted", map[string]string{
		"a_guard_expected_accepted.yaml":     fmt.Sprintf(accepted, 0, "GUARD_FAILED", "go", "hall", start, "an unguarded first arm", "hall"),
		"b_legacy_invalid_accepted.yaml":     fmt.Sprintf(accepted, 0, "INVALID_SLOT_VALUE", "go", "hall", start, "an unguarded first arm", "hall"),
		"c_unguarded_after_false.yaml":       fmt.Sprintf(accepted, 0, "GUARD_FAILED", "gate", "hall", start, "the unguarded arm after guards false on what the fixture certainly has", "hall"),
		"d_values_unjudged.yaml":             fmt.Sprintf(accepted, 0, "INVALID_SLOT_VALUE", "pick", "hall", start, "an unguarded first arm", "hall"),
		"e_orch_missing_slots.yaml":          `turns[0].expect_error: code MISSING_SLOTS on the orchestrator path, where a left-out required slot is a clarification`,
		"f_legacy_missing_slots_passes.yaml": "",
		"g_wildcard_takes.yaml":              `turns[0].expect_error: code INTENT_NOT_ALLOWED_IN_STATE, but intent "wild" is taken at "room"`,
		"h_parallel_unjudged.yaml":           unwarned,
		"i_legacy_slot_sent.yaml":            fmt.Sprintf(accepted, 0, "MISSING_SLOTS", "need", "hall", start, "an unguarded first arm", "hall"),
		"j_guard_false_passes.yaml":          "",
		"k_guard_true_after_move.yaml":       fmt.Sprintf(accepted, 1, "GUARD_FAILED", "gate", "room", "turns[0].expect_state rests", "the arm whose when: world.n > 0 is true on what the fixture certainly has", "room"),
		"l_legacy_guard_allowed.yaml":        `turns[0].expect_error: code GUARD_FAILED with allowed_contains on the legacy path`,
		"m_orch_guard_allowed_passes.yaml":   "",
		"n_legacy_missing_allowed.yaml":      `turns[0].expect_error: code MISSING_SLOTS with allowed_contains on the legacy path`,
		"o_untaken_other_code.yaml":          `turns[0].expect_error: code GUARD_FAILED, but intent "back" is not taken at "hall", where the fixture starts (initial_state) (it and its ancestors take: go, gate, pick, need): both engines refuse it INTENT_NOT_ALLOWED_IN_STATE`,
	}, ruleRejected, ruleWrongState, ruleErrorCode)
	lintGolden(t, "../engine/testdata/conformance/lint-expect-accepted-values", map[string]string{
		"a_default_inside.yaml":            fmt.Sprintf(accepted, 0, "INVALID_SLOT_VALUE", "pick", "a", start, "an unguarded first arm", "a"),
		"b_default_outside_pass.yaml":      "",
		"c_sent_inside.yaml":               fmt.Sprintf(accepted, 0, "GUARD_FAILED", "pick", "a", start, "an unguarded first arm", "a"),
		"d_sent_outside_pass.yaml":         "",
		"e_sent_null_pass.yaml":            "",
		"f_no_default_left_out.yaml":       fmt.Sprintf(accepted, 0, "INVALID_SLOT_VALUE", "free", "a", start, "an unguarded first arm", "a"),
		"g_whole_float.yaml":               fmt.Sprintf(accepted, 0, "INVALID_SLOT_VALUE", "num", "a", start, "an unguarded first arm", "a"),
		"h_text_number.yaml":               fmt.Sprintf(accepted, 0, "INVALID_SLOT_VALUE", "num", "a", start, "an unguarded first arm", "a"),
		"i_default_inside_orch.yaml":       fmt.Sprintf(accepted, 0, "INVALID_SLOT_VALUE", "pick", "a", start, "an unguarded first arm", "a"),
		"j_list_pass.yaml":                 "",
		"k_default_outside_orch_pass.yaml": "",
		"l_fraction_pass.yaml":             "",
	}, ruleRejected, ruleWrongState, ruleErrorCode)
	const capped = `turns[0].expect_error: code GUARD_FAILED, but intent %q, fired at "idle" (where the fixture starts (initial_state)), takes an unguarded first arm of "idle"`
	lintGolden(t, "../engine/testdata/conformance/expect-error-mode-capped", map[string]string{
		"go.yaml":    fmt.Sprintf(capped, "go"),
		"loop.yaml":  fmt.Sprintf(capped, "loop"),
		"loop2.yaml": fmt.Sprintf(capped, "loop2"),
		"red.yaml":   fmt.Sprintf(capped, "red"),
		"tl.yaml":    fmt.Sprintf(capped, "tl"),
	}, ruleRejected, ruleWrongState, ruleErrorCode)
}

// TestLintAllowedNever: an allowed_contains naming an intent no state
// takes is in no rejection's list, on either path (conformance
// allowed-priority-order).
func TestLintAllowedNever(t *testing.T) {
	const never = `turns[0].expect_error.allowed_contains: "nothere", but no state of the story takes it (no on: nothere arm)`
	lintGolden(t, "../engine/testdata/conformance/allowed-priority-order", map[string]string{
		"f.yaml": never, "legacy.yaml": never, "p.yaml": never, "u.yaml": never,
	}, ruleRejected, ruleErrorCode)
}

// TestLintExpectAcceptedRawStart: a first turn fired where the fixture
// starts on a path under a known state (c.c9 under c) takes that state's
// arm on both paths, so expecting a rejection there fails (conformance
// start-under-known-rest, the last fixture of orch.yaml and legacy.yaml;
// its GUARD_FAILED fixture, whose arm's when: is false, is not flagged).
func TestLintExpectAcceptedRawStart(t *testing.T) {
	dir := "../engine/testdata/conformance/start-under-known-rest"
	st := loadGoldenStory(t, dir)
	for _, name := range []string{"orch.yaml", "legacy.yaml"} {
		var got []diag.Diagnostic
		for _, d := range lintFixtureFile(t, st, filepath.Join(dir, "flows", name)) {
			if d.Rule == ruleErrorCode.ID && strings.Contains(d.Message, `fired at "c.`) {
				got = append(got, d)
			}
		}
		wantFinding(t, got, `turns[0].expect_error: code INTENT_NOT_ALLOWED_IN_STATE, but intent "back", fired at "c.c9" (where the fixture starts (initial_state), a path under "c" that takes its intents), takes an unguarded first arm of "c"`)
	}
}
