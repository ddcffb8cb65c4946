package lint

import (
	"testing"

	"kitsoki/pkg/diag"

	"kitsoki/pkg/story"
)

// What the target-template rule must not warn about: a read the arm does
// not write, a key named state under world, an inline effects: list (never
// runs), an on_complete target after its chain's set: (it renders after
// it), and a literal initial: on the way down.
func TestTargetTemplateQuiet(t *testing.T) {
	src := `app: {id: quiet}
hosts: [host.build]
root: start
world:
  n: {type: int, default: 0}
  m: {type: int, default: 0}
  state: {type: object, default: {path: a}}
intents:
  go: {}
  own: {}
  down: {}
states:
  start:
    on:
      go:
        - target: "s{{ world.n }}"
          effects:
            - set: {m: 1}
      own:
        - target: "s{{ world.state.path }}"
          effects:
            - when: "world.n > 9"
              effects:
                - set: {n: 2}
      down:
        - target: deck
          effects:
            - set: {n: 1}
  s0:
    on_enter:
      - invoke: host.build
        background: true
        on_complete:
          - set: {n: 0}
          - target: "s{{ world.n }}"
  s1: {terminal: true}
  sa: {terminal: true}
  deck:
    type: compound
    initial: inner
    states:
      inner:
        type: compound
        initial: "c{{ world.m }}"
        states:
          c0: {terminal: true}
          c1: {terminal: true}
`
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	for _, d := range ds {
		if d.Rule == ruleTargetTemplate.ID || d.Severity == diag.Error {
			t.Errorf("unexpected %s", d)
		}
	}
}

// Each way a target or initial: template reads what it cannot see is
// warned once, at the read.
func TestTargetTemplateWarns(t *testing.T) {
	for name, tc := range map[string]struct{ arm, extra string }{
		"set":       {"- target: \"s{{ world.n }}\"\n          effects: [{set: {n: 1}}]", ""},
		"dotted":    {"- target: \"s{{ world.n }}\"\n          effects: [{set: {n.x: 1}}]", ""},
		"bracket":   {"- target: \"s{{ world[\\\"n\\\"] }}\"\n          effects: [{set: {n: 1}}]", ""},
		"single":    {"- target: \"s{{ world['n'] }}\"\n          effects: [{increment: {n: 1}}]", ""},
		"optional":  {"- target: \"s{{ world?.n }}\"\n          effects: [{set: {n: 1}}]", ""},
		"in-if":     {"- target: \"{% if world['n'] %}s1{% endif %}{{ '' }}\"\n          effects: [{set: {n: 1}}]", ""},
		"desc-brk":  {"- target: deck\n          effects: [{set: {n: 1}}]", "  deck: {type: compound, initial: \"s{{ world['n'] }}\", states: {s1: {}}}\n"},
		"state":     {"- target: \"s{{ state.path }}\"", ""},
		"descend":   {"- target: deck\n          effects: [{increment: {n: 1}}]", "  deck: {type: compound, initial: \"s{{ world.n }}\", states: {s1: {}}}\n"},
		"via-state": {"- target: .", "  deck: {type: compound, initial: \"s{{ state['path'] }}\", states: {s1: {}}}\n"},
	} {
		src := "app: {id: w}\nroot: start\nworld:\n  n: {type: int, default: 0}\nintents: {go: {}}\nstates:\n  start:\n    on:\n      go:\n        " +
			tc.arm + "\n  s1: {}\n" + tc.extra
		_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
		got := 0
		for _, d := range ds {
			if d.Rule == ruleTargetTemplate.ID {
				got++
			}
		}
		if got != 1 {
			t.Errorf("%s: %d target-template findings, want 1: %v", name, got, ds)
		}
	}
}
