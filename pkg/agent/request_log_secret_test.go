package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"kitsoki/pkg/story"
)

// lateSecretTransport answers, once its deadline has passed, with an
// answer in which a secret spans the JSON syntax.
type lateSecretTransport struct{}

func (lateSecretTransport) Ask(ctx context.Context, _ *AskRequest) (*AskResponse, error) {
	<-ctx.Done()
	return &AskResponse{Submission: json.RawMessage(`{"a":"secret-one","b":"secret-two"}`)}, nil
}
func (lateSecretTransport) Close() error { return nil }

// A late answer recorded in agent.call.error (discarded) is masked as
// written, then read: a secret spanning its JSON syntax is in no one
// string of its value, and the value masked string by string, encoded
// again, spelled it whole.
func TestLateAnswerSecretSpanningJSONSyntaxIsMasked(t *testing.T) {
	const secret = `secret-one","b":"secret-two`
	sink := &recSink{}
	red := NewRedactor(map[string]*story.AgentPlugin{"agent.s": {Secrets: []string{secret}}})
	reg, err := NewRegistryFromPlugins(map[string]*story.AgentPlugin{}, RegistryOptions{AppID: "late", StoryDir: t.TempDir(), Sink: sink, Redactor: red})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	reg.lateGraceOverride = time.Minute // a hang guard: the transport answers at once
	if err := reg.Register("agent.late", lateSecretTransport{}); err != nil {
		t.Fatal(err)
	}
	_, err = reg.Dispatch(context.Background(), Call{Alias: "agent.late", Verb: "ask", Prompt: "p", Timeout: 50 * time.Millisecond})
	if KindOf(err) != KindDeadlineExceeded {
		t.Fatalf("err = %v", err)
	}
	var ev Event
	for _, e := range sink.evs {
		if e.Kind == EventCallError {
			ev = e
		}
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), secret) || !strings.Contains(string(b), `"discarded":{"submission":{"a":"`+Redacted+`"}}`) {
		t.Fatalf("agent.call.error: %s", b)
	}
}
