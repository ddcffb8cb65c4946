package agent_test

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// bigTextAnswer is an answer of about n bytes whose text holds JSON
// escapes (\n), as a model's prose does.
func bigTextAnswer(n int) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"text": strings.Repeat("a line of prose\n", n/17)})
	return b
}

// bigAnswerRegistry serves agent.big with answer from a Go agent, in a
// registry that masks a declared secret (the answer holds none).
func bigAnswerRegistry(tb testing.TB, answer json.RawMessage) *agent.Registry {
	red := agent.NewRedactor(map[string]*story.AgentPlugin{"agent.s": {Secrets: []string{"sk-declared-secret-1234"}}})
	fx := agenttest.NewFixture(tb, nil, agent.RegistryOptions{Redactor: red, Sink: agent.SinkFunc(func(agent.Event) error { return nil })})
	_ = fx.Registry.RegisterInProcess("agent.big", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		return &agent.AskResponse{Submission: answer}, nil
	}))
	return fx.Registry
}

// An answer is decoded once even when the run masks secrets: masking
// judges the escapes in it on the value the schema check decoded. Measured
// as what Dispatch allocates per byte of a 1 MiB answer holding escapes
// (what it allocates beside the decodes is too little to move the figure):
// a second decode (encoding/json's growing read buffer and the decoded
// text again) costs several bytes per byte; the bound lies halfway
// between one decode and two (figures in the commit that added this
// test). Before, the masker decoded the answer a second time whenever it
// held a backslash. Not parallel: the counter is the process's.
func TestMaskedAnswerDecodedOnce(t *testing.T) {
	const n = 1 << 20
	answer := bigTextAnswer(n)
	reg := bigAnswerRegistry(t, answer)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := reg.Dispatch(context.Background(), agent.Call{Alias: "agent.big", Verb: "ask"})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := res.Value.(map[string]any); len(m["text"].(string)) < n/2 {
		t.Fatalf("the answer's value: %.100v", res.Value)
	}
	perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(answer))
	t.Logf("Dispatch allocates %.1f bytes per answer byte", perByte)
	if perByte > 10 {
		t.Errorf("Dispatch allocates %.1f bytes per byte of a %d-byte answer: it is decoded more than once", perByte, len(answer))
	}
}

// BenchmarkDispatchMaskedBigAnswer is one Dispatch of an 8 MiB answer
// holding escapes, in a run that masks a secret (B/op is the figure).
func BenchmarkDispatchMaskedBigAnswer(b *testing.B) {
	reg := bigAnswerRegistry(b, bigTextAnswer(8<<20))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Dispatch(context.Background(), agent.Call{Alias: "agent.big", Verb: "ask"}); err != nil {
			b.Fatal(err)
		}
	}
}
