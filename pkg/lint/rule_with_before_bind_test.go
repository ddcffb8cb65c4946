package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// wbbApp binds art (default DEFAULT) from host.ok in a's on_enter and in
// go's arm, and reads it in the with: of the call CALL (in a's on_enter
// after the bind) and of b's on_enter (entered by go).
const wbbApp = `app: {id: wbb}
hosts: [host.ok, host.job]
world:
  art: {type: map, default: DEFAULT}
intents: {go: {}, back: {}, in: {}}
root: s0
states:
  s0:
    on:
      in: [{target: a}]
      go:
        - target: b
          effects:
            - {invoke: host.ok, BIND: {art: v}}
  a:
    on_enter:
      - {invoke: host.ok, BIND: {art: v}}
      - {invoke: host.ok, WHENwith: {x: "READ"}}
    on: {back: [{target: s0}]}
  b:
    on_enter:
      - {invoke: host.ok, with: {x: "READ"}}
    on: {back: [{target: s0}]}
`

// The rule fires where a call's with: reads past a key an earlier
// foreground call of the same step binds while the key is null at walk
// time (with-walk-error), and not with ?., a default, a non-null world
// default, a background bind, a bind from an earlier turn or when: false.
func TestWithBeforeBind(t *testing.T) {
	cases := []struct {
		name, def, bind, when, read string
		want                        []string // states named by the findings
	}{
		{"member of a null bound key", "null", "bind", "", "{{ world.art.y }}", []string{`state "a" on_enter`, `state "s0" intent "go" arm 0`}},
		{"no default", "", "bind", "", "{{ world.art.y }}", []string{`state "a" on_enter`, `state "s0" intent "go" arm 0`}},
		{"an index", "null", "bind", "", "{{ world.art['y'] }}", []string{`state "a" on_enter`, `state "s0" intent "go" arm 0`}},
		{"safe access", "null", "bind", "", "{{ world.art?.y }}", nil},
		{"a default", "null", "bind", "", "{{ world.art.y ?? '-' }}", nil},
		{"the key itself", "null", "bind", "", "{{ world.art }}", nil},
		{"a non-null default", "{}", "bind", "", "{{ world.art.y }}", nil},
		{"when false", "null", "bind", `when: "false", `, "{{ world.art.y }}", []string{`state "s0" intent "go" arm 0`}},
		{"a background call's bind", "null", "background: true, bind", "", "{{ world.art.y }}", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			def := c.def
			src := strings.NewReplacer("DEFAULT", def, "BIND", c.bind, "WHEN", c.when, "READ", c.read).Replace(wbbApp)
			if def == "" {
				src = strings.Replace(src, "art: {type: map, default: }", "art: {type: map}", 1)
			}
			got := withBeforeBind(t, src)
			if len(got) != len(c.want) {
				t.Fatalf("want %d findings, got %v", len(c.want), got)
			}
			for i, w := range c.want {
				if !strings.HasPrefix(got[i], w+":") || !strings.Contains(got[i], "world.art?.") {
					t.Fatalf("finding %d: want %s and the fix named, got %q", i, w, got[i])
				}
			}
		})
	}
}

// A bind made in an earlier turn (another state's on_enter) is not the
// same step, and a literal non-null set: between bind and read, or
// before the bind, leaves the key readable at walk time.
func TestWithBeforeBindEarlierTurn(t *testing.T) {
	earlier := strings.NewReplacer("DEFAULT", "null", "BIND", "bind", "WHEN", "", "READ", "{{ world.art.y }}").Replace(wbbApp)
	earlier = strings.Replace(earlier, "      - {invoke: host.ok, bind: {art: v}}\n      - {invoke: host.ok, with:", "      - {invoke: host.ok, with:", 1)
	earlier = strings.Replace(earlier, "          effects:\n            - {invoke: host.ok, bind: {art: v}}\n", "", 1)
	earlier = strings.Replace(earlier, "  s0:\n", "  s0:\n    on_enter:\n      - {invoke: host.ok, bind: {art: v}}\n", 1)
	if got := withBeforeBind(t, earlier); len(got) != 0 {
		t.Fatalf("earlier turn: want no finding, got %v", got)
	}
	set := strings.NewReplacer("DEFAULT", "null", "BIND", "bind", "WHEN", "", "READ", "{{ world.art.y }}").Replace(wbbApp)
	set = strings.Replace(set, "      - {invoke: host.ok, with:", "      - set: {art: {y: 1}}\n      - {invoke: host.ok, with:", 1)
	set = strings.Replace(set, "            - {invoke: host.ok, bind: {art: v}}\n", "            - set: {art: {y: 1}}\n            - {invoke: host.ok, bind: {art: v}}\n", 1)
	if got := withBeforeBind(t, set); len(got) != 0 {
		t.Fatalf("set: want no finding, got %v", got)
	}
}

func withBeforeBind(t *testing.T, src string) []string {
	t.Helper()
	return sourceMessages(t, src, ruleWithBeforeBind.ID)
}

// sourceMessages loads src, which must load with no error, and lists
// the messages of the rule id's findings in order.
func sourceMessages(t *testing.T, src, id string) []string {
	t.Helper()
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	for _, d := range ds {
		if d.Severity == diag.Error {
			t.Fatalf("the story must load: %s", d.Message)
		}
	}
	return ruleMessages(ds, id)
}
