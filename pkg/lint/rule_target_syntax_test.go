package lint

import (
	"testing"

	"kitsoki/pkg/story"
)

// What target-syntax must not warn about: a target both syntaxes compile
// (a {% %} tag on a user turn's, which pongo2 renders),
// a pongo-only target no literal emit_intent hops to (an inline effects:
// list never runs, a templated emit names no intent here, an emit of
// another state's line lands elsewhere), an expr-only target on an arm
// an emit hops to (written for the hop), an expr-only
// on_complete target, a {{ state... }} read (target-template's), and a
// literal initial:.
func TestTargetSyntaxQuiet(t *testing.T) {
	src := `app: {id: quiet}
hosts: [host.build]
root: start
world:
  n: {type: int, default: 0}
  d: {type: string, default: s1}
intents:
  go: {}
  lower: {}
  lower2: {}
  tern: {}
  hop: {}
states:
  start:
    on:
      go:
        - target: "s{{ world.n }}"
        - target: "s{{ world['n'] }}"
        - target: "{% if world.n > 0 %}s1{% endif %}{{ '' }}"
        - target: "{{ state.path }}"
      lower:
        - target: "{{ world.d|lower }}"
      lower2:
        - target: "{{ world.d|lower }}"
      tern:
        - target: "{{ world.n > 0 ? 's1' : 's0' }}"
      hop:
        - target: start
          effects:
            - emit_intent: tern
            - emit_intent: "{{ world.d }}"
            - when: "world.n > 9"
              effects:
                - emit_intent: lower
  waiting:
    on_enter:
      - invoke: host.build
        background: true
        on_complete:
          - target: "{{ world.n > 0 ? 's1' : 's0' }}"
  far:
    on_enter: [{emit_intent: lower2}]
    on: {lower2: [{target: s1}]}
  deck:
    type: compound
    initial: c0
    states:
      c0: {terminal: true}
  s0: {terminal: true}
  s1: {terminal: true}
`
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	for _, d := range ds {
		if d.Rule == ruleTargetSyntax.ID {
			t.Errorf("unexpected %s", d)
		}
	}
}

// Each path a target renders on is checked in its own syntax, once: a
// user turn's and an initial: (pongo2), a hop's and an on_complete's
// (the expr template syntax), in a parallel region too.
func TestTargetSyntaxWarns(t *testing.T) {
	for name, tc := range map[string]string{
		"user":     "start:\n    on:\n      go: [{target: \"s{{ world?.n }}\"}]",
		"ternary":  "start:\n    on:\n      go: [{target: \"{{ world.n > 0 ? 's1' : 's0' }}\"}]",
		"hop":      "start:\n    on_enter: [{emit_intent: go}]\n    on:\n      go: [{target: \"s{{ world.n|add:1 }}\"}]",
		"hop-tag":  "start:\n    on_enter: [{emit_intent: go}]\n    on:\n      go: [{target: \"{% if world.n > 0 %}s1{% endif %}{{ '' }}\"}]",
		"job-tag":  "start:\n    on_enter:\n      - {invoke: host.build, background: true, on_complete: [{target: \"{% if world.n > 0 %}s1{% endif %}{{ '' }}\"}]}",
		"neither":  "start:\n    on:\n      go: [{target: \"s{{ world.n + }}\"}]",
		"job":      "start:\n    on_enter:\n      - {invoke: host.build, background: true, on_complete: [{target: \"s{{ world.n|add:1 }}\"}]}",
		"initial":  "start:\n    type: compound\n    initial: \"s{{ world?.n }}\"\n    states: {s1: {}}",
		"parallel": "start:\n    type: parallel\n    states:\n      a: {on: {go: [{target: \"s{{ world?.n }}\"}]}}\n      b: {}",
	} {
		src := "app: {id: w}\nhosts: [host.build]\nroot: start\nworld:\n  n: {type: int, default: 0}\nintents: {go: {}}\nstates:\n  s1: {}\n  " + tc + "\n"
		_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
		got := 0
		for _, d := range ds {
			if d.Rule == ruleTargetSyntax.ID {
				got++
			}
		}
		if got != 1 {
			t.Errorf("%s: %d target-syntax findings, want 1: %v", name, got, ds)
		}
	}
}
