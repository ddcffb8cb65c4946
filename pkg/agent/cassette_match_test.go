package agent_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/agent"
)

// The agent transport's own matching rules, kept apart from the host
// cassette's: handler is the alias or host.agent.<verb> (only with a
// verb), schema_name needs a non-empty string with.schema whose base name
// equals it, and Remaining leaves out replay: any episodes.
func TestCassetteAgentMatchRules(t *testing.T) {
	cas, err := agent.ParseCassette("c.yaml", []byte(`kind: host_cassette
episodes:
  - id: no_schema
    match: {handler: agent.a, schema_name: ~}
  - id: empty_schema
    match: {handler: agent.a, schema_name: "."}
  - id: bare_verb
    match: {handler: host.agent.}
  - id: by_verb
    match: {handler: host.agent.ask, schema_name: v.json}
    replay: any
  - id: spare
    match: {handler: agent.none}
  - id: spare_any
    match: {handler: agent.none}
    replay: any
`))
	if err != nil {
		t.Fatal(err)
	}
	ask := func(alias string, req *agent.AskRequest) string {
		t.Helper()
		r, err := cas.For(alias).Ask(context.Background(), req)
		if err != nil {
			if !strings.Contains(err.Error(), "cassette miss") {
				t.Fatalf("%s: %v", alias, err)
			}
			return "miss"
		}
		return fmt.Sprintf("%s#%d", r.Meta["episode_id"], r.Meta["match_idx"])
	}
	for _, c := range []struct {
		alias string
		req   *agent.AskRequest
		want  string
	}{
		{"agent.a", &agent.AskRequest{}, "miss"},
		{"agent.a", &agent.AskRequest{With: map[string]any{"schema": ""}}, "miss"},
		{"agent.a", &agent.AskRequest{With: map[string]any{"schema": 3}}, "miss"},
		{"agent.b", &agent.AskRequest{}, "miss"},
		{"agent.b", &agent.AskRequest{Verb: "ask", With: map[string]any{"schema": "x/v.json"}}, "by_verb#0"},
		{"agent.c", &agent.AskRequest{Verb: "ask", With: map[string]any{"schema": "v.json"}}, "by_verb#1"},
	} {
		if got := ask(c.alias, c.req); got != c.want {
			t.Errorf("%s %+v: got %s, want %s", c.alias, c.req, got, c.want)
		}
	}
	if left := cas.Remaining(); !slices.Equal(left, []string{"no_schema", "empty_schema", "bare_verb", "spare"}) {
		t.Errorf("Remaining = %q", left)
	}
}
