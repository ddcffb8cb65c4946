package flowtest

import (
	"os"
	"path/filepath"
	"testing"
)

// settleGolden is the probe story of a turn followed through its calls
// and the post-bind pass, with what the existing engine printed for each
// fixture (upstream.json).
const settleGolden = "../engine/testdata/conformance/lint-settle"

// TestLintSettles: a turn whose every step is certain is followed as
// the engines run it (conformance lint-settle): a post-bind emit on a
// bound answer leaves the story, a pre-bind hop moves on, a once: call
// is skipped, a failing post-bind round is discarded, a redirect to
// the resting state ends the turn there, a first turn is followed from
// its initial_state, the resting state's timeout is armed afresh; each fixture upstream fails is warned as it fails there,
// the ones it passes are not.
func TestLintSettles(t *testing.T) {
	lintGolden(t, settleGolden, map[string]string{
		"a_postbind_exit.yaml":              `intent "look" fires after the fixture left the story through @exit:done`,
		"b_postbind_other_exit.yaml":        `ends at "__exit__failed": every step on the way is certain`,
		"c_unbound_stays.yaml":              "",
		"d_prebind_hop.yaml":                `ends at "far": every step on the way is certain`,
		"e_once_skipped.yaml":               `ends at "__exit__done": every step on the way is certain`,
		"f_ok.yaml":                         "",
		"g_hop_lands.yaml":                  "",
		"h_round_discarded.yaml":            `ends at "room" (the post-bind round firing both fails`,
		"i_round_discarded_stays.yaml":      "",
		"j_self_redirect.yaml":              `ends at "room": every step on the way is certain`,
		"k_self_redirect_stays.yaml":        "",
		"l_first_turn_postbind.yaml":        `intent "look" fires after the fixture left the story through @exit:done`,
		"m_timeout_after_settle.yaml":       `its timeout fires and moves it to "far"`,
		"n_timeout_after_settle_fires.yaml": "",
	}, ruleRejected, ruleWrongState)
}

// TestLintSettleGivesUp: where a step is not certain the turn is not
// followed, and nothing is said of where it ends.
func TestLintSettleGivesUp(t *testing.T) {
	app, err := os.ReadFile(filepath.Join(settleGolden, "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, fx := range map[string]string{
		"a delayed answer":   "host_handlers:\n  host.run: {delay: 1s, data: {stdout_json: {v: bad}}}\n",
		"an unread cassette": "host_cassette: c.yaml\n", // not beside the fixture
		"a staged fixture":   "mode: staged\nhost_handlers:\n  host.run: {data: {stdout_json: {v: bad}}}\n",
	} {
		t.Run(name, func(t *testing.T) {
			turn := "  - intent: {name: begin}\n    expect_state: __exit__done\n"
			src := "test_kind: flow\ninitial_state: start\n" + fx + "turns:\n" + turn
			got := ruleFindings(t, ruleWrongState, map[string]string{"app.yaml": string(app), "c.yaml": "interactions: []\n"}, src)
			wantFinding(t, got, "")
		})
	}
}

// TestLintSettleRedirects: a failing call's on_error to another state is
// followed there (conformance lint-settle-redirect): the target's
// on_enter and its emits, a nested redirect, no post-bind pass.
func TestLintSettleRedirects(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-settle-redirect", map[string]string{
		"a_wrong_state.yaml":       `ends at "failed" (a failing call's on_error redirects it`,
		"b_rejected.yaml":          `intent "next" is not taken at "failed"`,
		"c_ok.yaml":                "",
		"d_emit_on_enter.yaml":     `ends at "settled"`,
		"e_nested.yaml":            `ends at "failed"`,
		"f_nested_ok.yaml":         "",
		"g_postbind_redirect.yaml": `ends at "failed"`,
	}, ruleRejected, ruleWrongState)
}

// TestLintSettleOnceCachedEmit: an arm's call once: skips (its bind target
// already set) takes the entry's emit_intent with it, so the turn rests
// where the arm leads (conformance once-cached-emit; both engines pass
// stay.yaml and fail moved.yaml).
func TestLintSettleOnceCachedEmit(t *testing.T) {
	app := `app: {id: once-emit, version: 0.1.0}
hosts: [host.ok]
world:
  r: {type: string, default: ""}
intents: {arm: {}, ping: {}}
states:
  a:
    view: A
    on:
      arm:
        - target: a
          effects:
            - {invoke: host.ok, once: true, bind: {r: v}, emit_intent: ping}
      ping: [{target: c}]
  c:
    view: C
root: a
`
	for want, expect := range map[string]string{"": "a", `ends at "a": every step on the way is certain`: "c"} {
		t.Run("expect_state "+expect, func(t *testing.T) {
			src := "test_kind: flow\ninitial_state: a\ninitial_world: {r: preset}\nuse_orchestrator: true\n" +
				"host_handlers:\n  host.ok: {data: {v: R}}\nturns:\n  - intent: {name: arm, slots: {}}\n    expect_state: " + expect + "\n"
			wantFinding(t, ruleFindings(t, ruleWrongState, map[string]string{"app.yaml": app}, src), want)
		})
	}
}

// TestLintWithWalkError: upstream renders an invoke's with: as the
// machine walks the entry, before the batch's binds land, and drops a
// post-bind hop or a job's landing on a state whose with: fails so
// (conformance with-walk-error): the settle walk follows no call whose
// with: may fail to render, and no fixture there, all passing upstream,
// is warned.
func TestLintWithWalkError(t *testing.T) {
	want := map[string]string{}
	for _, f := range []string{"after-bind", "job", "on-error-landing", "once-cached", "post-bind-hop", "safe", "timeout", "when-false"} {
		want[f+".yaml"] = ""
	}
	lintGolden(t, "../engine/testdata/conformance/with-walk-error", want, ruleRejected, ruleWrongState)
}
