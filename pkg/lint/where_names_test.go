package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// whereNamesStory reports a problem at each kind of place whose name the
// checker and parser now spell out only for a message.
const whereNamesStory = `app:
  id: where-names
root: a
intents:
  go: {}
  ask:
    title: [x]
    slots:
      s:
        type: string
        required: maybe
agents:
  p:
    model: [x]
states:
  a:
    footer: "{{ world.x ?? }}"
    on_enter:
      - set: { write_mode_scope: x }
      - invoke: host.run
        background: true
        on_complete:
          - say: "{{ world.y | nosuchfilter }}"
            target: a
    on:
      go:
        - target: a
          when: "world.a ==="
          effects:
            - set: { write_mode_scope: x }
              bogus: 1
            - say: "{% if %}"
          view:
            - prose: "{% for %}"
    view:
      - prose: "{{ 1 + }}"
      - choice:
          intent: nope
      - prose: x
        when: "world.b ==="
  b:
    type: [x]
    terminal: maybe
    on:
      go:
        target: a
        default: maybe
        view:
          - choice:
              intent: nope2
          - choice:
              intent: go
`

// TestWhereNames: the places named in messages read as they always did.
func TestWhereNames(t *testing.T) {
	_, ds := LoadSource("app.yaml", []byte(whereNamesStory), story.Options{})
	var got []string
	for _, d := range ds {
		got = append(got, d.Message)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		`state "a" on_enter: set: "write_mode_scope" is engine-reserved`,
		`state "a" intent "go": set: "write_mode_scope" is engine-reserved`,
		`state "a": view[1] (choice): intent "nope" not declared`,
		`state "b": intent "go": transition view[0] (choice): intent "nope2" not declared`,
		`state "b": intent "go": transition view[1] (choice): only one choice element per view is allowed`,
		`state "a" intent "go" effects[1]: say`,
		`state "a" on_enter[1] on_complete[0]: say`,
		`state "a" footer: `,
		`state "a" view[0] (prose): `,
		`state "a" intent "go" transition[0] view[0] (prose): `,
		`state "a": view[2] (prose): when "world.b ==="`,
		`effect states.a.on.go[0].effects[0]: unknown key "bogus"`,
		`states.b.type: expected a string, got a list`,
		`states.b.terminal: expected true or false, got "maybe"`,
		`states.b.on.go.default: expected true or false, got "maybe"`,
		`intents.ask.title: expected a string, got a list`,
		`intents.ask.slots.s.required: expected true or false, got "maybe"`,
		`agents.p.model: expected a string, got a list`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no message contains %q; messages:\n%s", want, all)
		}
	}
}

// TestDuplicateKeysSmallAndLarge: a repeated key is reported at its
// second place naming the first, in a small mapping (found by a scan) and
// a large one (found by a map), merge keys aside.
func TestDuplicateKeysSmallAndLarge(t *testing.T) {
	var large strings.Builder
	for i := 0; i < 20; i++ {
		large.WriteString("  k" + string(rune('a'+i)) + ": {}\n")
	}
	src := `app:
  id: dup
root: a
base: &b {x: 1}
states:
  a:
    description: x
    <<: *b
    description: y
intents:
` + large.String() + `  kc: {}
`
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	var got []string
	for _, d := range ds {
		if d.Rule == story.RuleDuplicateKey.ID {
			got = append(got, d.Message)
		}
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		`mapping key "description" already defined at line 7, column 5`,
		`mapping key "kc" already defined at line 13, column 3`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no duplicate-key message contains %q; got:\n%s", want, all)
		}
	}
}
