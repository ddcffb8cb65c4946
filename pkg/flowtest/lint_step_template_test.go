package flowtest

import (
	"strings"
	"testing"
)

// TestLintTemplatedTarget: a user turn's templated target whose text is
// certain is followed: to a state of the story as a literal one (known),
// and to a path the story does not hold, where the machine rests taking
// only its known dotted prefix's intents, or none (conformance
// mutate-template-target-unknown, template-target-same-unknown: a move
// from an unknown path to another; template-target-above-top: ".." from
// a top-level state rests on "" on the legacy path only).
func TestLintTemplatedTarget(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/mutate-template-target-unknown", map[string]string{
		"known.yaml":   `intent "look" is not taken at "b.b1"`,
		"null.yaml":    `intent "look" is not taken at "null", where turns[0] "tpl" leads`,
		"under.yaml":   `it takes only the intents of "b", its deepest known dotted prefix`,
		"unknown.yaml": `no dotted prefix of it is a state, so it takes no intent`,
	}, ruleRejected, ruleWrongState)
	lintGolden(t, "../engine/testdata/conformance/template-target-same-unknown", map[string]string{
		"f1.yaml":  `turns[3]: intent "y" is not taken at "zz.k"`,
		"f1l.yaml": `turns[3]: intent "y" is not taken at "zz.k"`,
		"f2.yaml":  "",
		"f2l.yaml": "",
	}, ruleRejected, ruleWrongState)
	lintGolden(t, "../engine/testdata/conformance/template-target-above-top", map[string]string{
		"f1.yaml":  "",
		"f1l.yaml": `turns[1]: intent "z" is not taken at ""`,
		"f2.yaml":  "",
		"f3.yaml":  "",
		"f4.yaml":  "",
	}, ruleRejected, ruleWrongState)
}

// TestLintTemplatedTargetUncertain: a templated target whose text is
// not certain is not followed: a tag or filter (pongo2's own), a key
// the arm's effects write, a slot declared other than text, a value an
// escape may rewrite.
func TestLintTemplatedTargetUncertain(t *testing.T) {
	app := `app: {id: tt}
root: a
world:
  d: {type: string, default: "nowhere"}
intents:
  go:
    slots:
      to: {type: string}
      n: {type: int}
  look: {}
states:
  a:
    on:
      go: [{target: "{{ world.d }}"}]
      look: [{target: .}]
`
	fx := "test_kind: flow\ninitial_state: a\nturns:\n  - intent: {name: go, slots: {to: \"nowhere\", n: 1}}\n  - intent: {name: look}\n"
	if got := ruleFindings(t, ruleRejected, map[string]string{"app.yaml": app}, fx); len(got) != 1 || !strings.Contains(got[0].Message, `not taken at "nowhere"`) {
		t.Fatalf("the certain render: want one finding at \"nowhere\", got %v", got)
	}
	for name, target := range map[string]string{
		"a tag":         `"{% if true %}nowhere{% endif %}{{ '' }}"`,
		"a filter":      `"{{ world.d|lower }}"`,
		"written":       `"{{ world.d }}", effects: [{set: {d: a}}]`,
		"an int slot":   `"x{{ slots.n }}"`,
		"an escape":     `"{{ slots.to }}"`,
		"an undeclared": `"{{ world.e }}"`,
	} {
		t.Run(name, func(t *testing.T) {
			story := strings.Replace(app, `"{{ world.d }}"}]`, target+"}]", 1)
			f := fx
			if name == "an escape" {
				f = strings.Replace(fx, `to: "nowhere"`, `to: "a&b"`, 1)
			}
			if got := ruleFindings(t, ruleRejected, map[string]string{"app.yaml": story}, f); len(got) != 0 {
				t.Fatalf("want no finding, got %v", got)
			}
		})
	}
}

// TestLintSettleTemplatedTarget: the settle walk (a story that starts
// jobs, on the orchestrator path) follows a templated target whose text
// is certain, an emit hop's too, onto a path the story does not hold
// (probed: upstream rests on b.zz, refusing look and taking b's back).
func TestLintSettleTemplatedTarget(t *testing.T) {
	app := `app: {id: sw, version: 0.1.0}
hosts: [host.job]
world:
  dest: {type: string, default: "b.zz"}
intents:
  wtpl: {description: w}
  hop: {description: hop}
  back: {description: back}
  look: {description: look}
  j: {description: j}
root: a
states:
  a:
    on:
      wtpl: [{target: "{{ world.dest }}"}]
      hop: [{target: ., effects: [{emit_intent: wtpl}]}]
      look: [{target: .}]
      j: [{target: a, effects: [{invoke: host.job, background: true, on_complete: [{set: {dest: a}}]}]}]
  b:
    type: compound
    initial: b1
    on:
      back: [{target: a}]
    states:
      b1: {}
`
	fx := "test_kind: flow\ninitial_state: a\nuse_orchestrator: true\nturns:\n  - intent: {name: hop}\n"
	files := map[string]string{"app.yaml": app}
	got := ruleFindings(t, ruleRejected, files, fx+"  - intent: {name: look}\n")
	if len(got) != 1 || !strings.Contains(got[0].Message, `not taken at "b.zz", where turns[0] "hop", fired at "a"`) || !strings.Contains(got[0].Message, "every step on the way certain") {
		t.Fatalf("want the walk's finding at \"b.zz\", got %v", got)
	}
	if got := ruleFindings(t, ruleRejected, files, fx+"  - intent: {name: back}\n    expect_state: a\n"); len(got) != 0 {
		t.Fatalf("b's back is taken at b.zz: want no finding, got %v", got)
	}
}

// TestLintExitNeverMade: expect_terminal at an __exit__NAME the story
// never makes (only an arm's or a timeout's written @exit:NAME makes
// one) fails on both engines (conformance exit-state-terminal): the
// start-* fixtures at such a name, and run-tm*, whose templated target
// renders "@exit:tmpl", a path the machine rests on as any other.
func TestLintExitNeverMade(t *testing.T) {
	want := map[string]string{"run-fail.yaml": unwarned}
	for _, f := range []string{"run-timed", "start-arm", "start-orch-arm", "start-orch-region", "start-orch-timed", "start-region", "start-timed"} {
		want[f+".yaml"] = ""
	}
	for _, f := range []string{"nosuch", "oncomplete", "onerr", "tmpl", "unused"} {
		want["start-"+f+".yaml"] = `the fixture ends in "__exit__` + f + `" (initial_state, with no turn), a state the story never makes`
		want["start-orch-"+f+".yaml"] = want["start-"+f+".yaml"]
	}
	want["run-tm.yaml"] = `the fixture ends in "@exit:tmpl"`
	want["run-tm_leg.yaml"] = want["run-tm.yaml"]
	lintGolden(t, "../engine/testdata/conformance/exit-state-terminal", want, ruleNotTerminal)
}

// TestLintTargetInt: a templated target reading an integer world value
// renders it in decimal; a float is not judged (conformance
// lint-target-int).
func TestLintTargetInt(t *testing.T) {
	want := map[string]string{"incl_l.yaml": `turns[1].expect_state: "s0", but the turn's intent "go"`}
	for _, o := range []string{"_o", "_l"} {
		for _, c := range []struct{ name, moved string }{{"def", "s2"}, {"iw", "s4"}, {"flt", "s2"}, {"set", "s5"}} {
			want[c.name+o+".yaml"] = ""
			want[c.name+"_wrong"+o+".yaml"] = `moves it to "` + c.moved + `"`
		}
		want["iwf"+o+".yaml"] = unwarned // 3.0: s3.000000 on the legacy path
	}
	lintGolden(t, "../engine/testdata/conformance/lint-target-int", want, ruleRejected, ruleWrongState)
}

// TestLintHopTargetJSON: an emit hop's target renders a world list as its
// compact JSON, a path the story does not hold, where the machine rests
// taking no intent (conformance hop-target-json hop-list). A bool, an
// object and a string are rendered too, where upstream passes; the
// legacy twin and a job's on_complete are not followed.
func TestLintHopTargetJSON(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/hop-target-json", map[string]string{
		"enter-list-legacy.yaml": "", "enter-list.yaml": "",
		"hop-bool-legacy.yaml": "", "hop-bool.yaml": "",
		"hop-float-legacy.yaml": "", "hop-float.yaml": "",
		"hop-list-legacy.yaml": unwarned,
		"hop-list.yaml":        `turns[1]: intent "z" is not taken at "[\"x\"]"`,
		"hop-map-legacy.yaml":  "", "hop-map.yaml": "",
		"hop-string-legacy.yaml": "", "hop-string.yaml": "",
		"job-list.yaml":        unwarned,
		"par-list-legacy.yaml": "", "par-list.yaml": "",
		"user-list-legacy.yaml": "", "user-list.yaml": "",
	}, ruleWorldKnown, ruleRejected, ruleWrongState)
}
