package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// A ${VAR} secret under 4 bytes is a warning that names the plugin and
// never the value; a 4-byte one is not.
func TestShortSecretWarns(t *testing.T) {
	dir := t.TempDir()
	src := "app:\n  id: s\nroot: r\nagent_plugins:\n  agent.x:\n    plugin: subprocess\n    command: /bin/true\n    env:\n      LEVEL: \"${L}\"\nstates:\n  r:\n    terminal: true\n"
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		val  string
		warn bool
	}{{"1", true}, {"ok", true}, {"abc", true}, {"abcd", false}} {
		_, ds := Load(dir, story.Options{LookupEnv: func(string) (string, bool) { return tc.val, true }})
		got := false
		for _, d := range ds {
			if d.Rule == "secret-too-short" {
				got = true
				if d.Severity != diag.Warning || !strings.Contains(d.Message, "agent_plugins.agent.x") || strings.Contains(d.Message, `"`+tc.val+`"`) {
					t.Errorf("%q: %s", tc.val, d)
				}
			}
		}
		if got != tc.warn {
			t.Errorf("value of %d bytes: warned=%v, want %v", len(tc.val), got, tc.warn)
		}
	}
}

// api_key_env's value is a secret too (it is sent as a bearer token), and
// the warning says so rather than pointing at a ${VAR} there is none of.
func TestShortSecretWarnsForAPIKeyEnv(t *testing.T) {
	dir := t.TempDir()
	src := "app:\n  id: s\nroot: r\nagent_plugins:\n  agent.local:\n    plugin: builtin.local_llm\n    endpoint: http://127.0.0.1:1/v1\n    api_key_env: MY_KEY\nstates:\n  r:\n    terminal: true\n"
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds := Load(dir, story.Options{LookupEnv: func(k string) (string, bool) { return "k1", k == "MY_KEY" }})
	for _, d := range ds {
		if d.Rule == "secret-too-short" {
			if !strings.Contains(d.Message, "api_key_env") || strings.Contains(d.Message, "k1") {
				t.Errorf("message: %s", d)
			}
			return
		}
	}
	t.Errorf("no secret-too-short warning for a 2-byte api_key_env value: %v", ds)
}
