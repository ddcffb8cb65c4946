package phasese2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/phases"
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

// BenchmarkExpandWide: expanding a graph of 10,000 entries of a one-state
// template, the shape where the cost per entry, not per template, counts.
func BenchmarkExpandWide(b *testing.B) {
	var y strings.Builder
	y.WriteString(head + "phase_templates:\n  t:\n    states:\n      \"{id}_executing\": {on: {go: [{target: \"{{ phase.next.go }}\"}]}}\nphases:\n  template: t\n  graph:\n")
	for i := range 10_000 {
		fmt.Fprintf(&y, "    p%d: {next: {go: p%d}}\n", i, (i+1)%10_000)
	}
	st, _ := story.LoadSource("app.yaml", []byte(y.String()), story.Options{LookupEnv: storyload.NoEnv})
	b.ReportAllocs()
	for b.Loop() {
		cp := *st
		cp.States = slices.Clone(st.States)
		if err := phases.Expand(&cp); err != nil {
			b.Fatal(err)
		}
	}
}
