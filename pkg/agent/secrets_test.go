package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

const plantedSecret = "sk-planted-SECRET-4f9a"
const plantedHeader = "Bearer hdr-planted-77c1"

const secretStory = `app:
  id: secret-app
root: room
agent_plugins:
  agent.leaky:
    plugin: subprocess
    command: /bin/true
    env:
      API_KEY: "${LEAKY_KEY}"
  agent.remote:
    plugin: mcp_http
    endpoint: http://127.0.0.1:1/mcp
    headers:
      Authorization: "Bearer ${REMOTE_TOKEN}"
states:
  room:
    terminal: true
`

func loadSecretStory(t *testing.T) *story.Story {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(secretStory), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"LEAKY_KEY": plantedSecret, "REMOTE_TOKEN": strings.TrimPrefix(plantedHeader, "Bearer ")}
	st := storyload.Load(t, filepath.Join(dir, "app.yaml"), story.Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if st.AgentPlugins["agent.leaky"] == nil || st.AgentPlugins["agent.leaky"].Env["API_KEY"] != plantedSecret {
		t.Fatalf("secret story: %#v", st)
	}
	return st
}

// A plugin that knows its secret and echoes it into every field it
// controls; kitsoki must keep it out of the request, every event, every
// error and every log line.
func TestSecretsNeverLeak(t *testing.T) {
	st := loadSecretStory(t)
	sink := &agenttest.RecordingSink{}
	var logBuf bytes.Buffer
	leak := func(p *story.AgentPlugin, bc agent.BuildContext) (agent.Transport, error) {
		secret := ""
		for _, v := range p.SecretValues() {
			secret = v
		}
		bc.Logger.Debug("building plugin", "detail", bc.Redact("env is "+secret))
		return agent.NewInProcess(p.Alias, agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
			if req.Verb == "fail" {
				return nil, agent.Errorf(agent.KindPluginCrash, "stderr: auth failed for key %s", secret)
			}
			return &agent.AskResponse{
				Submission: json.RawMessage(`{"answer":"my key is ` + secret + `"}`),
				Meta:       map[string]any{"key": secret, "model": "m-" + secret},
				SubEvents: []agent.SubEvent{{Kind: p.Alias + ".tool", CallID: req.CallID,
					Payload: json.RawMessage(`{"cmd":"curl -H 'X: ` + secret + `'"}`)}},
			}, nil
		})), nil
	}
	reg, err := agent.NewRegistry(st, agent.RegistryOptions{
		Sink:     sink,
		Logger:   slog.New(slog.NewTextHandler(&logBuf, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Builders: map[string]agent.Builder{story.PluginSubprocess: leak, story.PluginMCPHTTP: leak},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	if reg.AppID() != "secret-app" {
		t.Fatalf("app id %q", reg.AppID())
	}
	var produced []string
	var requests []string
	for _, alias := range []string{"agent.leaky", "agent.remote"} {
		for _, verb := range []string{"ask", "fail"} {
			_ = reg.RegisterInProcess("agent.spy", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
				b, _ := json.Marshal(req)
				requests = append(requests, string(b))
				return &agent.AskResponse{}, nil
			}))
			c := agent.Call{Alias: alias, Verb: verb, Prompt: "do it", World: map[string]any{"x": 1}, With: map[string]any{"k": "v"}}
			res, err := reg.Dispatch(context.Background(), c)
			if err != nil {
				produced = append(produced, err.Error())
			} else {
				// The answer is masked where it enters the run: the engine
				// binds, says and stores only the masked value.
				b, _ := json.Marshal(res)
				if strings.Contains(string(b), plantedSecret) || strings.Contains(string(b), "hdr-planted") || !strings.Contains(string(res.Submission), agent.Redacted) {
					t.Errorf("%s: the result must come back masked: %s", alias, b)
				}
			}
			c.Alias = "agent.spy"
			if _, err := reg.Dispatch(context.Background(), c); err != nil {
				t.Fatal(err)
			}
		}
	}
	produced = append(produced, sink.JSON()...)
	produced = append(produced, logBuf.String())
	produced = append(produced, requests...)
	all := strings.Join(produced, "\n")
	for _, s := range []string{plantedSecret, "hdr-planted-77c1"} {
		if strings.Contains(all, s) {
			t.Fatalf("secret %q leaked into output:\n%s", s, all)
		}
	}
	if !strings.Contains(all, agent.Redacted) {
		t.Fatal("expected the leaked values to be shown as " + agent.Redacted)
	}
	if !strings.Contains(reg.Redact("x "+plantedSecret), agent.Redacted) {
		t.Fatal("Registry.Redact")
	}
}
