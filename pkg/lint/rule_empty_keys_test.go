package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// loadRuleFindings writes src as a story's app.yaml, loads it with every
// variable set to "val", and returns the findings of rule.
func loadRuleFindings(t *testing.T, src, rule string) []diag.Diagnostic {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds := Load(dir, story.Options{LookupEnv: func(string) (string, bool) { return "val1", true }})
	var out []diag.Diagnostic
	for _, d := range ds {
		if d.Rule == rule {
			out = append(out, d)
		}
	}
	return out
}

// An empty reference ${} warns at its own line and column, in env:,
// headers: and providers env:; its ordinary neighbours (a ${VAR}, a bare
// $, an unclosed ${, braces around a name) do not.
func TestEnvEmptyRef(t *testing.T) {
	const head = "app: {id: e}\nroot: r\nstates:\n  r:\n    terminal: true\n"
	for _, tc := range []struct {
		name, val string
		warn      bool
	}{
		{"empty", `"${}"`, true},
		{"middle", `"a${}b"`, true},
		{"after a var", `"${A}x${}"`, true},
		{"brace after", `"${}}"`, true},
		{"var", `"${A}"`, false},
		{"bare dollar", `"$A{}"`, false},
		{"unclosed", `"${"`, false},
		{"name holding ${", `"${a${}"`, false},
	} {
		for _, place := range []string{
			"agent_plugins:\n  agent.x:\n    plugin: subprocess\n    command: x\n    env:\n      V: %s\n",
			"agent_plugins:\n  agent.x:\n    plugin: mcp_http\n    endpoint: http://127.0.0.1:1/mcp\n    headers:\n      V: %s\n",
			"providers:\n  p:\n    env:\n      V: %s\n",
		} {
			got := loadRuleFindings(t, head+fmt.Sprintf(place, tc.val), ruleEnvEmptyRef.ID)
			if !tc.warn {
				if len(got) != 0 {
					t.Errorf("%s: warned on the ordinary neighbour %s: %v", tc.name, tc.val, got)
				}
				continue
			}
			if len(got) != 1 {
				t.Errorf("%s (%s): want one warning, got %v", tc.name, tc.val, got)
				continue
			}
			line, col := 5+strings.Count(place, "\n"), len("      V: ")+1+strings.Index(tc.val, "${}")
			if d := got[0]; d.Severity != diag.Warning || d.Line != line || d.Col != col || !strings.Contains(d.Message, `V: ""`) && !strings.Contains(d.Message, `V=""`) {
				t.Errorf("%s: got %q at %d:%d, want a warning naming V at %d:%d", tc.name, d.Message, d.Line, d.Col, line, col)
			}
		}
	}
}

// An empty kind warns only where a later kind holds something (it would
// have won by the written order), a lone say: "" and an empty target:
// warn, and the ordinary neighbours do not: a real kind alone, an empty
// invoke: or bind: beside a real target, a say: that holds text, a
// value of the wrong type (its type error says enough).
func TestEffectEmpty(t *testing.T) {
	const head = "app: {id: e}\nroot: r\nintents:\n  go: {}\nstates:\n  r:\n    on:\n      go: [{target: r, effects: [%s]}]\n"
	for _, tc := range []struct {
		eff  string
		want int
	}{
		{`{set: {}, invoke: host.run, with: {cmd: "true"}}`, 1},
		{`{set: ~, say: hi}`, 1},
		{`{increment: {}, say: hi}`, 1},
		{`{say: "", invoke: host.run, with: {cmd: "true"}}`, 1},
		{`{say: ~}`, 1},
		{`{say: ""}`, 1},
		{`{target: ""}`, 1},
		{`{target: ~, set: {a: 1}}`, 1},
		{`{set: {}, increment: {}, say: hi}`, 2},
		{`{set: {a: 1}}`, 0},
		{`{say: hi}`, 0},
		{`{say: "{{ world.a }}"}`, 0},
		{`{set: {}}`, 0},
		{`{set: {a: 1}, say: ""}`, 0},
		{`{invoke: host.run, with: {cmd: "true"}, bind: {}}`, 0},
		{`{say: hi, invoke: ""}`, 0},
		{`{say: [x]}`, 0},
		{`{set: [1], say: hi}`, 0},
		{`{target: [a]}`, 0},
		{`{increment: 5, say: hi}`, 0},
		{`{say: {a: 1}}`, 0},
		{`{set: null, say: hi}`, 1},
		{`{say: '', invoke: host.run, with: {cmd: "true"}}`, 1},
		{`{say: , invoke: host.run, with: {cmd: "true"}}`, 1},
		// decided from the value's node, not its text: an alias of an
		// empty mapping, a tagged empty mapping or string; a plain word
		// starting with null is a name
		{`{set: &e {}, say: hi}, {set: *e, say: hi}`, 2},
		{`{set: !!map {}, say: hi}`, 1},
		{`{say: !!str , invoke: host.run, with: {cmd: "true"}}`, 1},
		{`{target: nullish, say: hi}`, 0},
	} {
		got := loadRuleFindings(t, fmt.Sprintf(head, tc.eff), ruleEffectEmpty.ID)
		if len(got) != tc.want {
			t.Errorf("%s: want %d effect-empty warnings, got %v", tc.eff, tc.want, got)
		}
		for _, d := range got {
			if d.Severity != diag.Warning || d.Line != 8 {
				t.Errorf("%s: %s", tc.eff, d)
			}
		}
	}
}
