package phases_test

import (
	"kitsoki/pkg/phases"
	"testing"

	"kitsoki/pkg/story"
)

// BenchmarkExpand: expanding a 20-phase graph of a 3-state template.
func BenchmarkExpand(b *testing.B) {
	yaml := head + `phase_templates:
  t:
    parameters: {title: {type: string, required: true}, budget: {type: int, default: 2}}
    states:
      "{id}_executing":
        view: "{{ tpl.title }} {{ world.x }}"
        on_enter: [{invoke: host.run, with: {cmd: "echo {id} {{ tpl.title }}"}}]
        on: {go: [{target: "{id}_awaiting_reply"}]}
      "{id}_awaiting_reply":
        on:
          go:
            - when: "world.n < {budget}"
              target: "{id}_executing"
            - target: "{{ phase.next.go }}"
      "{id}_failed": {view: "failed {{ tpl.title }}"}
phases:
  template: t
  graph:
`
	for i := 0; i < 20; i++ {
		id := string(rune('a'+i)) + "x"
		yaml += "    " + id + ": {title: T" + id + ", next: {go: start}}\n"
	}
	dir := b.TempDir()
	st := writeAndLoad(b, dir, yaml)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cp := *st
		cp.States = append([]*story.State(nil), st.States...)
		if err := phases.Expand(&cp); err != nil {
			b.Fatal(err)
		}
	}
}
