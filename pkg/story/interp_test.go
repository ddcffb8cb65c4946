package story

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/yamlnode"
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
		// an empty reference empties the value and ends the scan
		{"${}", "", nil},
		{"a${}b", "", nil},
		{"x${A}y${}${MISSING}", "", nil},
		{"${}}${MISSING}", "", nil},
		{"${MISSING}${}", "", []string{"MISSING"}},
		{"${ }", "", []string{" "}},
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
	st, ds := LoadSource("app.yaml", []byte(pluginStory), Options{LookupEnv: look})
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
	_, ds = LoadSource("app.yaml", []byte(pluginStory), Options{LookupEnv: look, AllowUnsetEnv: true})
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

// An unset ${VAR} (agent_plugins env and headers, providers env) is
// reported at its "$", in every scalar style: a block
// scalar's reference on its own line (not at the | or > indicator), after
// multi-byte text and escapes, and each repeat of one name at its own
// place.
func TestUnsetEnvPositionInsideScalars(t *testing.T) {
	src := "app: {id: p}\n" + // 1
		"root: s\n" + // 2
		"states: {s: {}}\n" + // 3
		"agent_plugins:\n" + // 4
		"  agent.sub:\n" + // 5
		"    plugin: subprocess\n" + // 6
		"    command: ./agent\n" + // 7
		"    env:\n" + // 8
		"      LIT: |\n" + // 9
		"        first\n" + // 10
		"        k=${U_LIT} and ${U_LIT}\n" + // 11
		"      FOLD: >\n" + // 12
		"        héllo 日本\n" + // 13
		"        x ${U_FOLD}\n" + // 14
		"      QUOTED: \"a\\tb ${U_Q}\"\n" + // 15
		"      PLAIN: plain ${U_P}\n" + // 16
		"providers:\n" + // 17
		"  fast:\n" + // 18
		"    env:\n" + // 19
		"      KEY: |\n" + // 20
		"        x ${U_PROV}\n" // 21
	_, ds := LoadSource("app.yaml", []byte(src), Options{LookupEnv: func(string) (string, bool) { return "", false }})
	want := map[string]bool{
		"app.yaml:11:11 U_LIT": true, "app.yaml:11:24 U_LIT": true,
		"app.yaml:14:11 U_FOLD": true, "app.yaml:15:21 U_Q": true, "app.yaml:16:20 U_P": true,
		"app.yaml:21:11 U_PROV": true,
	}
	for _, d := range ds {
		f := strings.Fields(d.Message)
		key := fmt.Sprintf("%s:%d:%d %s", d.File, d.Line, d.Col, f[3])
		if !want[key] {
			t.Errorf("unexpected %s", d)
		}
		delete(want, key)
	}
	for k := range want {
		t.Errorf("missing %s", k)
	}
}
