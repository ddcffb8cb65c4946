package flowtest

import (
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// redirectApp: work's on_enter calls host.run with on_error: failed;
// arm's own call redirects to ../oops, whose on_enter redirects again to
// deeper; area has states: but no type:, so entering it rests on area.
// Every fixture below was run on the existing engine with the call
// failing (host.run: {error: boom}) and succeeding ({data: ...}).
const redirectApp = `app: {id: redirect}
root: lobby
hosts: [host.run]
intents: {go: {}, arm: {}, fix: {}, look: {}, enter: {}}
states:
  lobby:
    on:
      go: [{target: work}]
      enter: [{target: area}]
      arm:
        - target: plain
          effects:
            - invoke: host.run
              with: {cmd: "true"}
              on_error: ../oops
  work:
    on_enter:
      - invoke: host.run
        with: {cmd: "true"}
        on_error: failed
    on:
      look: [{target: .}]
  failed:
    on:
      fix: [{target: lobby}]
      look: [{target: .}]
  plain:
    on:
      look: [{target: .}]
  oops:
    on_enter:
      - invoke: host.run
        with: {cmd: "true"}
        on_error: deeper
    on:
      fix: [{target: lobby}]
  deeper:
    on:
      look: [{target: lobby}]
  area:
    initial: inner
    states:
      inner:
        on:
          fix: [{target: lobby}]
`

// TestRejectedAfterRedirect: a state entered through a call whose
// on_error may redirect is followed as two (or more) possible states:
// a turn neither takes is rejected whether the call fails or not, and an
// expect_state neither reaches fails either way (both probed on the
// existing engine: every warned fixture fails with the stub failing and
// with it succeeding); a turn one of them takes is not judged. The
// answers: a failing stub, and one whose delay leaves it uncertain (a
// certain success redirects nothing: TestLintCertainAnswerNoRedirect).
// Where the failing stub's answer settles the move at the redirect (the
// settle walk: conformance lint-step-redirect), the finding names that
// one rest (settled). Entering area, which has states: but no type:,
// rests on area, which takes no fix: the engine's own machine follows it
// where the stub certainly answers (replayed; the existing engine
// rejects it with either stub).
func TestRejectedAfterRedirect(t *testing.T) {
	cases := []struct {
		name, turns string
		rule        *diag.Rule
		want        []string // substrings of the one finding; none: no finding
		settled     []string // want, with the failing stub, where the walk settles the move
	}{
		{"neither takes it", "  - intent: {name: go}\n  - intent: {name: go}\n", ruleRejected,
			[]string{`intent "go" is not taken at "work"`, `nor at "failed", where a failing call's on_error may move it instead (taking: fix, look)`},
			[]string{`intent "go" is not taken at "failed", where turns[0] "go", fired at "lobby"`, `ends there (a failing call's on_error redirects it)`}},
		{"the redirect takes it", "  - intent: {name: go}\n  - intent: {name: fix}\n", ruleRejected, nil, nil},
		{"followed through a stay", "  - intent: {name: go}\n  - intent: {name: look}\n  - intent: {name: go}\n", ruleRejected,
			[]string{`turns[2]: intent "go" is not taken at "work"`, `nor at "failed"`},
			[]string{`turns[2]: intent "go" is not taken at "failed"`}},
		{"expect_state neither reaches", "  - intent: {name: go}\n  - intent: {name: look}\n    expect_state: lobby\n", ruleWrongState,
			[]string{`moves it to "work", or, when a call's on_error redirects it, to "failed"`, `or at "failed", where a failing call's on_error may move it`},
			[]string{`ends there (a failing call's on_error redirects it)`, `moves it to "failed"`}},
		{"expect_state the redirect reaches", "  - intent: {name: go}\n  - intent: {name: look}\n    expect_state: failed\n", ruleWrongState, nil, nil},
		{"an arm's call, chained", "  - intent: {name: arm}\n  - intent: {name: go}\n", ruleRejected,
			[]string{`not taken at "plain"`, `nor at "oops"`, `nor at "deeper"`}, nil},
		{"no descent without type: compound", "  - intent: {name: enter}\n  - intent: {name: fix}\n", ruleRejected, nil, nil},
		{"rests on a compound without type:", "  - intent: {name: enter}\n    expect_state: area\n", ruleWrongState, nil, nil},
	}
	// want, with the failing stub (not a delay), where the engine's own
	// machine follows the turns (lint_par_replay.go)
	replayed := map[string][]string{
		"no descent without type: compound": {`turns[1]: intent "fix", fired at "area", is rejected INTENT_NOT_ALLOWED_IN_STATE by the engine's own machine`},
	}
	for _, c := range cases {
		for _, stub := range []string{"{error: boom}", "{delay: 1s, data: {stdout: hi}}"} {
			t.Run(c.name+" "+stub, func(t *testing.T) {
				fx := "test_kind: flow\ninitial_state: lobby\nhost_handlers:\n  host.run: " + stub + "\nturns:\n" + c.turns
				var got []string
				for _, d := range ruleFindings(t, c.rule, map[string]string{"app.yaml": redirectApp}, fx) {
					got = append(got, d.Message)
				}
				want := c.want
				if c.settled != nil && stub == "{error: boom}" {
					want = c.settled
				}
				if r := replayed[c.name]; r != nil && stub == "{error: boom}" {
					want = r
				}
				if len(want) == 0 {
					if len(got) != 0 {
						t.Fatalf("want no %s finding, got %q", c.rule.ID, got)
					}
					return
				}
				if len(got) != 1 {
					t.Fatalf("want one %s finding, got %q", c.rule.ID, got)
				}
				for _, w := range want {
					if !strings.Contains(got[0], w) {
						t.Errorf("finding %q lacks %q", got[0], w)
					}
				}
			})
		}
	}
}

// TestLintCertainAnswerNoRedirect: a call the fixture's stub certainly
// answers without an error never takes its on_error, so the fixture rests
// where the arm leads (conformance lint-redirect-answered).
func TestLintCertainAnswerNoRedirect(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-redirect-answered", map[string]string{
		"a_neither.yaml":        `intent "go" is not taken at "work", where turns[0] "go" leads`,
		"b_redirect_takes.yaml": `intent "fix" is not taken at "work", where turns[0] "go" leads`,
		"c_stay.yaml":           `intent "go" is not taken at "work", where turns[1] "look" leads`,
		"d_exp_neither.yaml":    `expect_state: "lobby", but the turn's intent "look", fired at "work"`,
		"e_exp_redirect.yaml":   `expect_state: "failed", but the turn's intent "look", fired at "work"`,
		"f_arm_chain.yaml":      `intent "go" is not taken at "plain", where turns[0] "arm" leads`,
	}, ruleRejected, ruleWrongState)
}
