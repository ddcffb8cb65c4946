package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestLocalLLMKeyEchoIsMasked: a local_llm endpoint that echoes the bearer
// token api_key_env names — in its answer, its model name and, JSON-escaped,
// in an error — gets it into neither run's output nor the trace: the key is
// one of the story's secrets, masked in every form as a ${VAR} in headers:
// is (before, only the raw key in an error was masked).
func TestLocalLLMKeyEchoIsMasked(t *testing.T) {
	const key = `sk-"llm"-ünï-key-7c1d`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.Method == http.MethodGet {
			http.NotFound(w, r)
			return
		}
		echoed := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		answer, _ := json.Marshal(map[string]any{"text": "the key is " + echoed})
		b, _ := json.Marshal(map[string]any{
			"model":   "model-" + echoed,
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": string(answer)}}},
		})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	}))
	defer srv.Close()
	dir := t.TempDir()
	storytest.WriteTree(t, dir, map[string]string{"story/app.yaml": fmt.Sprintf(`app: { id: llmkey }
world:
  out: { type: object, default: {} }
agent_plugins:
  agent.local:
    plugin: builtin.local_llm
    endpoint: %q
    api_key_env: KS_TEST_LLM_KEY
intents:
  done: {}
root: ask
states:
  ask:
    on_enter:
      - invoke: host.agent.ask
        agent: agent.local
        with: { prompt: "go" }
        bind: { out: submitted }
      - when: "len(world.out) > 0"
        emit_intent: done
    on:
      done: [ { target: shown } ]
  shown:
    terminal: true
    on_enter:
      - say: "answer: {{ world.out.text }}"
`, srv.URL)})
	t.Setenv("KS_TEST_LLM_KEY", key)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	tr := filepath.Join(dir, "run.jsonl")
	code, out, errOut := runCmd(t, "run", filepath.Join(dir, "story"), "--trace", tr)
	trace, err := os.ReadFile(tr)
	if err != nil {
		t.Fatalf("run: exit %d, no trace (%v)\n%s%s", code, err, out, errOut)
	}
	if !strings.Contains(out+string(trace), "[REDACTED]") {
		t.Errorf("no masked echo: exit %d\n%s%s", code, out, errOut)
	}
	js, _ := json.Marshal(key)
	for name, b := range map[string]string{"stdout": out, "stderr": errOut, "trace": string(trace)} {
		for _, form := range []string{key, string(js[1 : len(js)-1]), "ünï-key"} {
			if strings.Contains(b, form) {
				t.Errorf("the api key (%q) reached %s:\n%s", form, name, b)
			}
		}
	}
}
