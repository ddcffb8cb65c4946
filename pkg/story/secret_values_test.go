package story

import (
	"slices"
	"testing"
)

func TestSecretValuesAreWhatSubstitutionProduced(t *testing.T) {
	src := []byte(`app: {id: s}
root: start
agent_plugins:
  agent.x:
    plugin: subprocess
    command: plug
    env:
      DEBUG: "1"
      TOKEN: "${KS_TOKEN}"
      URL: "https://${KS_HOST}/v1"
  agent.y:
    plugin: mcp_http
    endpoint: http://127.0.0.1:1/mcp
    headers:
      X-Static: static-header-value
states:
  start: {terminal: true}
`)
	env := map[string]string{"KS_TOKEN": "tok-123", "KS_HOST": "api.internal"}
	st, ds := LoadBytes("app.yaml", src, Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if st == nil || len(ds) != 0 {
		t.Fatalf("load: %v", ds)
	}
	got := st.AgentPlugins["agent.x"].SecretValues()
	for _, want := range []string{"tok-123", "api.internal", "https://api.internal/v1"} {
		if !slices.Contains(got, want) {
			t.Errorf("secret %q missing from %v", want, got)
		}
	}
	if slices.Contains(got, "1") {
		t.Errorf("the literal DEBUG value is configuration, not a secret: %v", got)
	}
	if y := st.AgentPlugins["agent.y"].SecretValues(); !slices.Contains(y, "static-header-value") {
		t.Errorf("header values are always secrets: %v", y)
	}
}
