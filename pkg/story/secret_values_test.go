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
	st, ds := LoadSource("app.yaml", src, Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
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

// A local_llm's api_key_env names a variable whose value is sent as a
// bearer token: that value is a secret like a ${VAR} in headers:, so a
// server echoing it in an answer or an error is masked (the registry's
// redactor is built from SecretValues). An unset or empty variable adds
// nothing.
func TestSecretValuesHoldTheAPIKey(t *testing.T) {
	src := []byte(`app: {id: s}
root: start
agent_plugins:
  agent.local:
    plugin: builtin.local_llm
    endpoint: http://127.0.0.1:1
    api_key_env: KS_LLM_KEY
  agent.unset:
    plugin: builtin.local_llm
    endpoint: http://127.0.0.1:1
    api_key_env: KS_NOT_SET
states:
  start: {terminal: true}
`)
	env := map[string]string{"KS_LLM_KEY": "sk-local-1234"}
	st, ds := LoadSource("app.yaml", src, Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if st == nil || len(ds) != 0 {
		t.Fatalf("load: %v", ds)
	}
	if got := st.AgentPlugins["agent.local"].SecretValues(); !slices.Contains(got, "sk-local-1234") {
		t.Errorf("the api_key_env value is missing from the secrets: %v", got)
	}
	if got := st.AgentPlugins["agent.unset"].SecretValues(); len(got) != 0 {
		t.Errorf("an unset api_key_env adds no secret: %v", got)
	}
}
