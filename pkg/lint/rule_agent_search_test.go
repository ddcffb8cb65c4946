package lint

import (
	"strings"
	"testing"
)

// host.agent.search is dispatched by kitsoki run through the registry;
// the lint warns only when the story declares no embedder, the case in
// which every call answers a domain error (conformance search-no-embedder).
func TestAgentSearchWarnsWithoutEmbedder(t *testing.T) {
	story := func(routing string) string {
		return "app: {id: s}\nintents: {go: {}}\n" + routing + `root: s
states:
  s:
    on_enter:
      - invoke: host.agent.search
        with: {query: q, corpus: "*.md"}
    on: {go: [{target: .}]}
`
	}
	for _, c := range []struct {
		name, routing string
		warn          bool
	}{
		{"none", "", true},
		{"empty block", "routing:\n  embedding: {cache_dir: c}\n", true},
		{"endpoint", "routing:\n  embedding: {endpoint: \"http://127.0.0.1:1\"}\n", false},
		{"model", "routing:\n  embedding: {model: nomic}\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "app.yaml", story(c.routing))
			out := wantDiags(t, dir)
			if got := strings.Contains(out, "host.agent.search has no embedder"); got != c.warn {
				t.Errorf("warned %v, want %v:\n%s", got, c.warn, out)
			}
			if strings.Contains(out, "does not dispatch") {
				t.Errorf("kitsoki run dispatches host.agent.search:\n%s", out)
			}
		})
	}
}
