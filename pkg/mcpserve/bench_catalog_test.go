package mcpserve

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/pkg/schema"
)

// BenchmarkBuildTools: deriving the tools of a story whose every state
// calls one verb of one alias (so one tool gathers n sites), as a load
// or a refresh after a story edit does.
func BenchmarkBuildTools(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var y strings.Builder
			y.WriteString("app: { id: many, version: 0.1.0 }\nagent_plugins:\n  agent.remote:\n    plugin: mcp_http\n    endpoint: http://127.0.0.1:1/mcp\nroot: s0\nstates:\n")
			for i := range n {
				fmt.Fprintf(&y, "  s%d:\n    on_enter:\n      - invoke: host.agent.decide\n        agent: agent.remote\n        with: { prompt: \"p\", schema: schemas/verdict.json }\n    terminal: true\n", i)
			}
			_, dir := writeStory(b, y.String())
			c := newServer(b, dir).Current()
			if c == nil || len(c.Tools) != 1 {
				b.Fatalf("catalog %+v", c)
			}
			b.ReportAllocs()
			for b.Loop() {
				tools, err := buildTools(c.story, c.asm, schema.NewStoryCompiler(c.story.Dir, c.story.Patterns()))
				if err != nil || len(tools["kitsoki_agent_remote_decide"].Sites) != n {
					b.Fatal(err, tools)
				}
			}
		})
	}
}
