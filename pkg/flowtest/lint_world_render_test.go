package flowtest

import "testing"

// TestLintRendersSets: a set: template reading only certain world keys,
// an import's world_in among them, is rendered as the engine renders it,
// and the known world judges the turns after it (conformance
// lint-set-render): each fixture upstream fails is warned as it fails
// there, the ones it passes are not (c: a coerced string is left
// uncertain).
func TestLintRendersSets(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-set-render", map[string]string{
		"a_text.yaml":         `expect_world["label"]: "[2] and y", but after the turns before it and this one the fixture certainly holds "[2] and x" there`,
		"b_typed.yaml":        `expect_world["tripled"]: 7, but after the turns before it and this one the fixture certainly holds 6 there`,
		"c_coerced_once.yaml": "",
		"d_world_in.yaml":     `every one's when: is false on the world the fixture certainly has then (first: world.sub__level == 2 && world.sub__seen == 'n=2')`,
		"e_holds.yaml":        "",
		"f_settle.yaml":       `ends at "finished"`, // the settle walk renders the on_enter's set too
		"g_settle_holds.yaml": "",
	}, ruleWorldKnown, ruleRejected, ruleWrongState)
}

// TestLintFollowsIncrements: an increment: of a literal delta on a
// certain integer is followed as the engine adds it (conformance
// lint-increment).
func TestLintFollowsIncrements(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-increment", map[string]string{
		"a_wrong.yaml":        `expect_world["visits"]: 4, but after the turns before it and this one the fixture certainly holds 3 there`,
		"b_twice.yaml":        "",
		"c_from_initial.yaml": `expect_world["visits"]: 13, but after the turns before it and this one the fixture certainly holds 12 there`,
		"e_once.yaml":         `every one's when: is false on the world the fixture certainly has then (first: world.fresh == 2)`,
	}, ruleWorldKnown, ruleRejected)
}
