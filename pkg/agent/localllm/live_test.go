package localllm_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// Endpoint-mode tests against a REAL llama-server (or any OpenAI-compatible
// server), for people who run one. Skipped unless KITSOKI_LLM_E2E=1:
//
//	llama-server -m qwen2.5-1.5b-instruct-q4_k_m.gguf --port 8080 --parallel 4 &
//	KITSOKI_LLM_E2E=1 KITSOKI_LLM_ENDPOINT=http://127.0.0.1:8080 \
//	  go test ./pkg/agent/localllm -run TestLiveLocalLLM -v
//
// KITSOKI_LLM_MODEL names the model sent in requests (optional for
// llama-server); KITSOKI_LLM_API_KEY_ENV names the variable holding a
// bearer token for an authenticated endpoint; KITSOKI_LLM_JSON_SCHEMA=1
// uses json_schema: true instead of grammar: true.
func liveFixture(t *testing.T) *agenttest.Fixture {
	t.Helper()
	if os.Getenv("KITSOKI_LLM_E2E") != "1" {
		t.Skip("set KITSOKI_LLM_E2E=1 and KITSOKI_LLM_ENDPOINT to run against a real llama-server")
	}
	ep := os.Getenv("KITSOKI_LLM_ENDPOINT")
	if ep == "" {
		t.Fatal("KITSOKI_LLM_E2E=1 needs KITSOKI_LLM_ENDPOINT (e.g. http://127.0.0.1:8080)")
	}
	return localFixture(t, ep, func(p *story.AgentPlugin) {
		p.Model = os.Getenv("KITSOKI_LLM_MODEL")
		p.APIKeyEnv = os.Getenv("KITSOKI_LLM_API_KEY_ENV")
		if os.Getenv("KITSOKI_LLM_JSON_SCHEMA") == "1" {
			p.JSONSchema = true
		} else {
			p.Grammar = true
		}
	})
}

func TestLiveLocalLLMDecide(t *testing.T) {
	fx := liveFixture(t)
	call := agent.Call{Alias: "agent.local", Verb: "decide", Turn: 1, StatePath: "judging",
		Prompt:     `A pull request fixes a typo in a README. Should it be merged? Answer {"verdict":"approve"} or {"verdict":"reject"}.`,
		SchemaPath: "schemas/verdict.json", Timeout: 5 * time.Minute}
	res, err := fx.Registry.Dispatch(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := res.Value.(map[string]any)
	if v["verdict"] != "approve" && v["verdict"] != "reject" {
		t.Fatalf("submission %s", res.Submission)
	}
	if res.Meta["grammar"] != true && res.Meta["json_schema"] != true {
		t.Fatalf("no constraint applied: %v", res.Meta)
	}
	t.Logf("answer %s meta %v in %s", res.Submission, res.Meta, res.Duration)
}

func TestLiveLocalLLMAskAndAttachOnly(t *testing.T) {
	fx := liveFixture(t)
	res, err := fx.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.local", Verb: "ask", Prompt: "Say hello in one word.", Timeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := res.Value.(string); res.Value == nil || (ok && strings.TrimSpace(s) == "") {
		t.Fatalf("empty answer %q", res.Submission)
	}
	// Endpoint mode owns nothing: after Close the server still answers.
	if err := fx.Registry.Close(); err != nil {
		t.Fatal(err)
	}
	fx2 := liveFixture(t)
	if _, err := fx2.Registry.Dispatch(context.Background(), agent.Call{Alias: "agent.local", Verb: "ask", Prompt: "Say hi.", Timeout: 5 * time.Minute}); err != nil {
		t.Fatalf("the server is gone after Close: %v", err)
	}
}
