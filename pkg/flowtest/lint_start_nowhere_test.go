package flowtest

import (
	"fmt"
	"testing"
)

// TestLintNowhereStart: the first intent a fixture fires where it starts
// in no state (no initial_state on the legacy path; one naming no state
// nor any dotted prefix of one) is rejected on both paths (conformance
// lint-start-nowhere, legacy-no-initial-state, root-empty); under a known prefix,
// after a turn sending input, or expecting the rejection it is not judged.
func TestLintNowhereStart(t *testing.T) {
	const legacy = `turns[0]: intent "go" is fired where the fixture starts, and the legacy path starts in the state "" (no initial_state): no state takes an intent there`
	lintGolden(t, "../engine/testdata/conformance/legacy-no-initial-state", map[string]string{
		"a.yaml": legacy, "b.yaml": legacy, "c.yaml": legacy, "d.yaml": "", "e.yaml": "", "f.yaml": "",
	}, ruleRejected, ruleErrorCode)
	const fired = `turns[%d]: intent "go" is fired where the fixture starts, and initial_state %q names no state of the story, nor does any dotted prefix of it`
	lintGolden(t, "../engine/testdata/conformance/lint-start-nowhere", map[string]string{
		"a_slash_after_clock.yaml":     fmt.Sprintf(fired, 1, "c/c1"),
		"b_legacy_unknown.yaml":        fmt.Sprintf(fired, 0, "abc"),
		"c_unknown_dotted.yaml":        fmt.Sprintf(fired, 0, "abc.def"),
		"d_known_prefix_unjudged.yaml": unwarned,
		"e_after_expected.yaml":        fmt.Sprintf(fired, 1, "abc"),
		"f_other_code.yaml":            `turns[0].expect_error: code GUARD_FAILED, but intent "go" is fired where the fixture starts, and initial_state "abc" names no state`,
		"g_expected_clock_then.yaml":   fmt.Sprintf(fired, 2, "c/c1"),
	}, ruleRejected, ruleErrorCode)
	lintGolden(t, "../engine/testdata/conformance/root-empty", map[string]string{
		"init.yaml": "", "noinit.yaml": `turns[0]: intent "go" is fired where the fixture starts, and the legacy path starts in the state ""`,
		"noinit2.yaml": "", "orch.yaml": "", "orchnoinit2.yaml": "", "orchnoinit3.yaml": "",
	}, ruleRejected, ruleErrorCode)
	files := map[string]string{"app.yaml": `app: {id: nowhere}
intents: {go: {}}
root: idle
states:
  idle:
    on:
      go: [{target: c}]
  c:
    type: compound
    initial: c1
    states:
      c1: {on: {go: [{target: idle}]}}
`}
	for _, tc := range []struct{ name, src, want string }{
		{"slash", "initial_state: c/c1\nuse_orchestrator: true\nturns:\n  - advance_clock: 1s\n  - intent: {name: go}\n",
			`turns[1]: intent "go" is fired where the fixture starts, and initial_state "c/c1" names no state of the story, nor does any dotted prefix of it`},
		{"legacy unknown", "initial_state: abc\nturns:\n  - intent: {name: go}\n", `initial_state "abc" names no state`},
		{"known prefix", "initial_state: c.zz\nuse_orchestrator: true\nturns:\n  - intent: {name: go}\n", ""},
		{"after one expected", "initial_state: abc\nturns:\n  - intent: {name: go}\n    expect_error: {code: INTENT_NOT_ALLOWED_IN_STATE}\n  - intent: {name: go}\n",
			`turns[1]: intent "go" is fired where the fixture starts, and initial_state "abc" names no state`},
		{"expected", "initial_state: abc\nturns:\n  - intent: {name: go}\n    expect_error: {code: INTENT_NOT_ALLOWED_IN_STATE}\n", ""},
		{"other code", "initial_state: abc\nuse_orchestrator: true\nturns:\n  - intent: {name: go}\n    expect_error: {code: GUARD_FAILED}\n",
			`turns[0].expect_error: code GUARD_FAILED, but intent "go" is fired where the fixture starts, and initial_state "abc" names no state`},
		{"orchestrated no start", "use_orchestrator: true\nturns:\n  - intent: {name: go}\n", ""},
		{"input first", "initial_state: abc\nuse_orchestrator: true\nturns:\n  - input: go on\n  - intent: {name: go}\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "test_kind: flow\n" + tc.src
			wantFinding(t, append(rejectedFindings(t, files, src), ruleFindings(t, ruleErrorCode, files, src)...), tc.want)
		})
	}
	rootless := map[string]string{"app.yaml": "app: {id: rootless}\nintents: {go: {}}\nroot: \"\"\nstates:\n  a:\n    on:\n      go: [{target: a}]\n"}
	wantFinding(t, rejectedFindings(t, rootless, "test_kind: flow\nuse_orchestrator: true\nturns:\n  - intent: {name: go}\n"),
		`turns[0]: intent "go" is fired where the fixture starts, and the story's root is "" and the fixture names no initial_state`)
}
