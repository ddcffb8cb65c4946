package story

import (
	"kitsoki/internal/yamlnode"
	"strings"
	"testing"
)

func TestInterpolate(t *testing.T) {
	env := map[string]string{"A": "1", "B": "${A}", "EMPTY": ""}
	look := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	cases := []struct {
		in, out string
		unset   []string
	}{
		{"plain", "plain", nil},
		{"${A}", "1", nil},
		{"x${A}y${A}z", "x1y1z", nil},
		{"$A ${A}", "$A 1", nil},      // bare $NAME is literal
		{"${B}", "${A}", nil},         // replacement text is not rescanned
		{"tail ${A", "tail ${A", nil}, // unclosed stays literal
		{"${MISSING}-${A}", "-1", []string{"MISSING"}},
		{"${EMPTY}", "", nil},
	}
	for _, c := range cases {
		got, unset, _ := interpolate(c.in, look)
		if got != c.out || strings.Join(unset, ",") != strings.Join(c.unset, ",") {
			t.Errorf("interpolate(%q) = %q %v, want %q %v", c.in, got, unset, c.out, c.unset)
		}
	}
}

const pluginStory = `app: {id: p}
root: s
states: {s: {}}
agent_plugins:
  agent.sub:
    plugin: subprocess
    command: ./agent
    env: {TOKEN: "Bearer ${SECRET_TOKEN}", OTHER: "${UNSET_ONE}"}
  agent.mcp:
    plugin: mcp_http
    endpoint: http://127.0.0.1:9/mcp
    headers: {Authorization: "${SECRET_TOKEN}"}
`

func TestPluginEnvSubstitutionAndSecrets(t *testing.T) {
	const secret = "s3cr3t-value-should-never-print"
	look := func(k string) (string, bool) {
		if k == "SECRET_TOKEN" {
			return secret, true
		}
		return "", false
	}
	st, ds := LoadBytes("app.yaml", []byte(pluginStory), Options{LookupEnv: look})
	if len(ds) != 1 || ds[0].Severity != "error" || ds[0].Message != "agent_plugins.agent.sub: env var UNSET_ONE referenced in env.OTHER not set" {
		t.Fatalf("diagnostics: %s", render(ds))
	}
	if got := st.AgentPlugins["agent.sub"].Env["TOKEN"]; got != "Bearer "+secret {
		t.Errorf("env not substituted: %q", got)
	}
	if got := st.AgentPlugins["agent.mcp"].Headers["Authorization"]; got != secret {
		t.Errorf("header not substituted")
	}
	for _, d := range ds {
		if strings.Contains(d.String(), secret) {
			t.Errorf("secret leaked into %s", d)
		}
	}
	_, ds = LoadBytes("app.yaml", []byte(pluginStory), Options{LookupEnv: look, AllowUnsetEnv: true})
	if len(ds) != 1 || ds[0].Severity != "warning" {
		t.Fatalf("AllowUnsetEnv: %s", render(ds))
	}
}

func TestSuggest(t *testing.T) {
	known := []string{"set", "increment", "say", "invoke", "on_enter", "on_error"}
	for in, want := range map[string]string{"sett": "set", "on_entr": "on_enter", "invok": "invoke", "onerror": "on_error", "zzzzzz": ""} {
		if got := yamlnode.Suggest(in, known); got != want {
			t.Errorf("yamlnode.Suggest(%q) = %q, want %q", in, got, want)
		}
	}
}
