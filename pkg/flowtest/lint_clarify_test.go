package flowtest

import (
	"strings"
	"testing"
)

const clarifyApp = `app: {id: clar}
root: lobby
intents:
  go:
    slots:
      who: {type: string, required: true}
  look: {}
states:
  lobby:
    on:
      go: [{target: hall}]
      look: [{target: lobby}]
  hall:
    on:
      look: [{target: hall}]
`

// On the orchestrator path a turn leaving out a required slot is a
// clarification: the machine stays (probed: got lobby, want hall).
func TestLintClarificationStays(t *testing.T) {
	files := map[string]string{"app.yaml": clarifyApp}
	const orch = "test_kind: flow\ninitial_state: lobby\nhost_handlers: {host.run: {data: {ok: true}}}\nturns:\n"
	got := ruleFindings(t, ruleWrongState, files, orch+"  - intent: {name: go}\n    expect_state: hall\n")
	if len(got) != 1 || !strings.Contains(got[0].Message, `stays at "lobby"`) || !strings.Contains(got[0].Message, `"who"`) {
		t.Fatalf("got %v", got)
	}
	// the rest after it is where it stayed: a later expect_state is judged from there
	got = ruleFindings(t, ruleWrongState, files, orch+"  - intent: {name: go, slots: {who: null}}\n  - intent: {name: look}\n    expect_state: hall\n")
	if len(got) != 1 || !strings.Contains(got[0].Message, `fired at "lobby"`) {
		t.Fatalf("after the clarification: got %v", got)
	}
	for name, src := range map[string]string{
		"the slot is sent":           orch + "  - intent: {name: go, slots: {who: ann}}\n    expect_state: hall\n",
		"an empty string is sent":    orch + "  - intent: {name: go, slots: {who: \"\"}}\n    expect_state: hall\n",
		"it expects to stay":         orch + "  - intent: {name: go}\n    expect_state: lobby\n",
		"the legacy path rejects it": "test_kind: flow\ninitial_state: lobby\nturns:\n  - intent: {name: go}\n    expect_state: hall\n",
	} {
		if got := ruleFindings(t, ruleWrongState, files, src); len(got) != 0 {
			t.Errorf("%s: got %v", name, got)
		}
	}
}

// At the start the rig runs no on_enter, and the post-bind pass walks only
// the state's own on_enter emit_intent entries: a first turn that
// clarifies stays at initial_state even when its on_enter calls a host
// (probed on docs-review's idle), but not when it holds an emit_intent.
func TestLintClarificationAtStart(t *testing.T) {
	app := func(onEnter string) map[string]string {
		return map[string]string{"app.yaml": strings.Replace(clarifyApp, "  lobby:\n", "  lobby:\n    on_enter:\n"+onEnter, 1)}
	}
	const src = "test_kind: flow\ninitial_state: lobby\nhost_handlers: {host.run: {data: {ok: true}}}\nturns:\n  - intent: {name: go}\n    expect_state: hall\n"
	got := ruleFindings(t, ruleWrongState, app("      - invoke: host.run\n        with: {cmd: pwd}\n        bind: {cwd: stdout}\n"), src)
	if len(got) != 1 || !strings.Contains(got[0].Message, `stays at "lobby"`) {
		t.Errorf("a host call in on_enter: got %v", got)
	}
	if got := ruleFindings(t, ruleWrongState, app("      - emit_intent: look\n        when: \"world.cwd != nil\"\n"), src); len(got) != 0 {
		t.Errorf("an emit_intent in on_enter: got %v", got)
	}
}

// A clarification starts no job: its advance_clock moves nothing even in
// a story whose background job moves the machine, as long as no job is
// out before it (probed on fix-tests' idle: start without test_cmd, with
// advance_clock, stays idle; the same shape below, got lobby).
func TestLintClarificationClockWithJobs(t *testing.T) {
	files := map[string]string{"app.yaml": strings.Replace(clarifyApp, "  hall:\n", `  hall:
    on_enter:
      - invoke: host.run
        with: {cmd: "true"}
        background: true
        on_complete: [{target: lobby}]
`, 1)}
	const orch = "test_kind: flow\ninitial_state: lobby\nhost_handlers: {host.run: {data: {ok: true}}}\nturns:\n"
	got := ruleFindings(t, ruleWrongState, files, orch+"  - intent: {name: go}\n    advance_clock: 500ms\n    expect_state: hall\n")
	if len(got) != 1 || !strings.Contains(got[0].Message, `stays at "lobby"`) {
		t.Fatalf("got %v", got)
	}
	// once a turn may have started the job, the clock may land it
	got = ruleFindings(t, ruleWrongState, files, orch+"  - intent: {name: go, slots: {who: ann}}\n  - intent: {name: go}\n    advance_clock: 500ms\n    expect_state: hall\n")
	if len(got) != 0 {
		t.Fatalf("after a job may have started: got %v", got)
	}
}

// TestLintClarifyWorld: a clarification runs no effect, so the world
// keeps what it held (conformance lint-clarify-world).
func TestLintClarifyWorld(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-clarify-world", map[string]string{
		"a_first_clarify_passes.yaml":        "",
		"b_later_clarify_passes.yaml":        "",
		"c_first_clarify_z_wrong.yaml":       `turns[0].expect_world["z"]: 7, but after the turns before it and this one the fixture certainly holds 0 there`,
		"d_override_then_clarify_wrong.yaml": `turns[2].expect_world["y"]: "hi", but after the turns before it and this one the fixture certainly holds "over" there`,
		"e_clarify_at_b_wrong.yaml":          `turns[1].expect_world["x"]: 1, but after the turns before it and this one the fixture certainly holds 10 there`,
		"f_clarify_then_guard.yaml":          `turns[1]: intent "check", fired at "a" (where turns[0] "need" is a clarification (a required slot left out): it stays), reaches the arms of "a", and every one's when: is false on the world the fixture certainly has then (first: world.z == 7)`,
		"g_clarify_then_need_passes.yaml":    "",
		"h_clarify_timer_wrong.yaml":         `turns[0].expect_state: "a", but the turn's intent "need" leaves out its required slot "v": on this orchestrator-path fixture the turn is a clarification, and the machine stays at "waiting"`,
		"i_clarify_timer_fires_passes.yaml":  "",
		"j_clarify_timer_stays_passes.yaml":  "",
	}, ruleRejected, ruleWrongState, ruleWorldKnown)
}
