package plugin

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
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
