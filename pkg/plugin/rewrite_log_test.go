package plugin

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// hook.rewrote carries the new values (model-visible = logged), with the
// profile's env secrets masked even when a hook writes one in.
func TestRewroteEventCarriesMaskedValues(t *testing.T) {
	a := assembleWithSecret(t, "config:\n  redact: {env: [SECRET_X]}\n")
	c := a.NewChain()
	defer c.Close()
	c.regs = append(c.regs, Registration{Point: pointPreDispatch, PluginID: "leaky", OnError: "veto",
		Handler: HandlerFunc(func(_ context.Context, _ Point, p Payload) (Result, error) {
			return Result{Outcome: outcomeContinue, Payload: Payload{"alias": "agent.other", "with": map[string]any{"token": "hunter2hunter2", "n": 1}}}, nil
		})})
	rec := &recorder{}
	out, halt, err := c.Run(context.Background(), pointPreDispatch, Payload{"alias": "agent.x", "prompt": "p", "with": map[string]any{}}, rec.emit)
	if err != nil || halt != nil || out["alias"] != "agent.other" {
		t.Fatal(err, halt, out)
	}
	var rewrote *EventPayload
	for _, ev := range rec.events {
		if ev.Kind == eventRewrote && ev.Payload.Plugin == "leaky" {
			rewrote = ev.Payload
		}
	}
	if rewrote == nil {
		t.Fatalf("no hook.rewrote from leaky: %s", rec.kinds())
	}
	b, _ := json.Marshal(rewrote)
	if !strings.Contains(string(b), `"alias":"agent.other"`) || !strings.Contains(string(b), `"token":"[redacted:SECRET_X]"`) || strings.Contains(string(b), "hunter2") {
		t.Fatalf("hook.rewrote payload %s", b)
	}
}

// hook.rewrote masks a secret no one string of the new values holds
// whole: one spanning the JSON syntax (`","`) and a numeric one, written
// in by a hook (redteam22: both were traced whole, masked string by
// string).
func TestRewroteEventMasksSecretsOutsideStrings(t *testing.T) {
	const span, num = `sp-one","b":"sp-two`, "98765432"
	red := agent.NewRedactor(map[string]*story.AgentPlugin{"agent.s": {Secrets: []string{span, num}}})
	a, err := Assemble(Options{StoryDir: t.TempDir(), Getenv: noEnv, Redact: red.Mask()})
	if err != nil {
		t.Fatal(err)
	}
	c := a.NewChain()
	defer c.Close()
	c.regs = append(c.regs, Registration{Point: pointPreDispatch, PluginID: "leaky", OnError: "veto",
		Handler: HandlerFunc(func(_ context.Context, _ Point, p Payload) (Result, error) {
			return Result{Outcome: outcomeContinue, Payload: Payload{"with": map[string]any{"a": "sp-one", "b": "sp-two", "pin": 98765432}}}, nil
		})})
	rec := &recorder{}
	if _, halt, err := c.Run(context.Background(), pointPreDispatch, Payload{"alias": "agent.x", "prompt": "p", "with": map[string]any{}}, rec.emit); err != nil || halt != nil {
		t.Fatal(err, halt)
	}
	b, _ := json.Marshal(rec.events)
	if got := string(b); strings.Contains(got, `sp-one\",\"b\":\"sp-two`) || strings.Contains(got, num) || !strings.Contains(got, agent.Redacted) {
		t.Fatalf("the hook events spell a secret: %s", got)
	}
}
