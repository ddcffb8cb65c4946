package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// The existing engine loads a number written as text, a float and an
// empty value as an increment delta (conformance values-increment-delta,
// increment-text); kitsoki loads them too and warns with what they add.
// Anything else is an error, as there: a template too (its decoder
// refuses "{{ world.z }}", "2.5" it reads as 2 — both verdicts recorded
// from the existing engine; this test once expected the opposite).
func TestIncrementDeltaKinds(t *testing.T) {
	cases := []struct {
		delta, severity, text string
	}{
		{`2`, "", ""},
		{`"2"`, "warning", `the text "2" adds 2`},
		{`1.5`, "warning", `1.5 is not an integer; it adds 1`},
		{`-1.5`, "warning", `it adds -1`},
		{`"{{ world.z }}"`, "error", `value must be an integer delta (got "{{ world.z }}"): a template is not rendered here`},
		{`"2.5"`, "warning", `the text "2.5" adds 2`},
		{`"1e3"`, "warning", `the text "1e3" adds 1000`},
		{`"1_000"`, "warning", `adds 1000`},
		{`~`, "warning", `an empty value adds 0`},
		{`"x"`, "error", `value must be an integer delta (got "x")`},
		{`" 2 "`, "error", `value must be an integer delta (got " 2 ")`},
		{`"-1"`, "error", `value must be an integer delta (got "-1")`},
		{`"0x10"`, "error", `value must be an integer delta (got "0x10")`},
		{`9.3e18`, "error", `overflows an integer delta`},
		{`1.0e19`, "error", `overflows an integer delta`},
		{`-9.3e18`, "warning", `it adds -9223372036854775808`},
		{`"1e19"`, "warning", `the text "1e19" adds -9223372036854775808`},
		{`"9223372036854775807"`, "warning", `adds -9223372036854775808`},
		{`"9007199254740993"`, "warning", `adds 9007199254740992`},
		{`"-1e19"`, "error", `value must be an integer delta (got "-1e19")`},
		{`"1e400"`, "error", `value must be an integer delta (got "1e400")`},
		{`"1e20"`, "error", `value must be an integer delta (got "1e20")`},
		{`true`, "error", `value must be an integer delta`},
	}
	for _, c := range cases {
		dir := t.TempDir()
		write(t, dir, "app.yaml", `app: {id: inc}
root: a
world: {z: {type: int, default: 0}}
intents: {go: {}}
states:
  a:
    on:
      go: [{target: ., effects: [{increment: {z: `+c.delta+`}}]}]
`)
		_, ds := Load(dir, story.Options{})
		var got []string
		for _, d := range ds {
			got = append(got, d.String())
		}
		all := strings.Join(got, "\n")
		if c.severity == "" {
			if len(ds) != 0 {
				t.Errorf("increment %s: want no diagnostic, got:\n%s", c.delta, all)
			}
			continue
		}
		if len(ds) != 1 || string(ds[0].Severity) != c.severity || !strings.Contains(ds[0].Message, c.text) {
			t.Errorf("increment %s: want one %s with %q, got:\n%s", c.delta, c.severity, c.text, all)
		}
	}
}
