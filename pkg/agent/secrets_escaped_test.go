package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// A real plugin (the echoagent program) that echoes its env: secret with
// every byte spelled as a JSON \uXXXX escape — valid JSON for the secret,
// in none of the forms the masker lists — in a submission value and key,
// meta, a sub-event, the transcript, a JSON-RPC error's message and data,
// a result that is not an AskResponse and a stray line: what the run keeps (the result, the trace, the error) holds no
// byte of it, decoded or not. Before the fix the submission, the sub-event
// and the transcript were kept as the plugin wrote them (a bind decoded
// the secret into the world) and the error data quoted the escapes.
func TestEscapedSecretEchoIsMasked(t *testing.T) {
	const secret = "sk-escaped-SECRET-91b7"
	bin := agent.BuildTestPlugin(t, "echoagent")
	for _, fault := range []string{"escaped_secret:API_KEY", "escaped_secret_error:API_KEY", "escaped_secret_bad_result:API_KEY"} {
		t.Run(fault, func(t *testing.T) {
			agent.CheckNoChildren(t)
			dir := t.TempDir()
			app := "app:\n  id: esc\nroot: room\nagent_plugins:\n  agent.leaky:\n    plugin: subprocess\n    command: " + strconv.Quote(bin) +
				"\n    env:\n      API_KEY: \"${LEAKY_KEY}\"\n      KITSOKI_TEST_FAULT: " + strconv.Quote(fault) + "\nstates:\n  room:\n    terminal: true\n"
			if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(app), 0o644); err != nil {
				t.Fatal(err)
			}
			st := storyload.Load(t, filepath.Join(dir, "app.yaml"), story.Options{LookupEnv: func(k string) (string, bool) {
				return secret, k == "LEAKY_KEY"
			}})
			sink := &agenttest.RecordingSink{}
			reg, err := agent.NewRegistry(st, agent.RegistryOptions{AppID: "esc", StoryDir: dir, Sink: sink})
			if err != nil {
				t.Fatal(err)
			}
			defer reg.Close()
			var kept []string
			for range 2 { // the second call reports what the plugin wrote after the first (a stray line)
				res, err := reg.Dispatch(context.Background(), agent.Call{Alias: "agent.leaky", Verb: "ask", Prompt: "go"})
				if err != nil {
					kept = append(kept, err.Error())
				} else {
					b, _ := json.Marshal(res)
					kept = append(kept, string(b), string(res.Submission))
				}
			}
			kept = append(kept, sink.JSON()...)
			all := strings.Join(kept, "\n")
			if !strings.Contains(all, agent.Redacted) {
				t.Errorf("the echoed secret is not shown as %s:\n%s", agent.Redacted, all)
			}
			for _, s := range kept {
				if leak := decodedLeak(s, secret); leak != "" {
					t.Errorf("the secret survives (%s) in:\n%s", leak, s)
				}
			}
		})
	}
}

// decodedLeak names how secret survives in s: raw, or spelled with JSON
// escapes at any depth of JSON text quoted in JSON; "" when it does not.
func decodedLeak(s, secret string) string {
	for depth := range 4 {
		if strings.Contains(s, secret) {
			return "at JSON depth " + strconv.Itoa(depth)
		}
		// Undo one level of escaping: each \uXXXX, \\ and \".
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' && i+5 < len(s) && s[i+1] == 'u' {
				if n, err := strconv.ParseUint(s[i+2:i+6], 16, 16); err == nil {
					b.WriteRune(rune(n))
					i += 5
					continue
				}
			}
			if s[i] == '\\' && i+1 < len(s) {
				i++
			}
			b.WriteByte(s[i])
		}
		s = b.String()
	}
	return ""
}
