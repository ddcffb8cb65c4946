package eval

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestProfilesHintNamesWhatTheCallRuns: an empty matrix.profiles is told
// to list the aliases the story can run for the call. agent.claude, which
// the loader adds to every story as upstream's does, is named only when
// the call runs on it (no agent: on the invoke) or nothing else is
// declared: a story declaring only agent.fast for the call was told
// "e.g. matrix: {profiles: [claude, fast]}".
func TestProfilesHintNamesWhatTheCallRuns(t *testing.T) {
	app := func(plugins, agent string) string {
		return "app: {id: hint, version: 0.1.0}\nhosts: [host.agent.decide]\n" + plugins +
			"world:\n  out: {type: object, default: {}}\nroot: s\nstates:\n  s:\n    on_enter:\n" +
			"      - invoke: host.agent.decide\n        id: pick\n" + agent +
			"        with: {prompt: \"pick\", schema: out.json}\n        bind: {out: submitted}\n    terminal: true\n"
	}
	fast := "agent_plugins:\n  agent.fast: {plugin: builtin.claude_cli}\n"
	for name, c := range map[string]struct{ app, want string }{
		"only fast, call on fast": {app(fast, "        agent: agent.fast\n"), "[fast]"},
		"fast, call on default":   {app(fast, ""), "[claude, fast]"},
		"none declared":           {app("", ""), "[claude]"},
	} {
		dir := t.TempDir()
		storytest.WriteTree(t, dir, map[string]string{
			"app.yaml":        c.app,
			"out.json":        `{"type": "object"}`,
			"evals/pick.yaml": "kind: agent_eval\napp: ../app.yaml\ncall: pick\nmatrix: {profiles: []}\ncomparator: exact\nexamples: [{name: a, expect: {x: 1}}]\n",
		})
		d, err := LoadDataset(filepath.Join(dir, "evals", "pick.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		v := Validate(d, &StoryLoader{})
		var hint string
		for _, f := range v.Findings {
			if strings.Contains(f.Message, "matrix.profiles is empty") {
				hint = f.Message
			}
		}
		if !strings.HasSuffix(hint, "e.g. matrix: {profiles: "+c.want+"}") {
			t.Errorf("%s: hint %q, want profiles %s (findings %v)", name, hint, c.want, v.Findings)
		}
	}
}
