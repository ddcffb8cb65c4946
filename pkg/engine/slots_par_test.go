package engine

import (
	"testing"
)

// In a parallel state, as upstream (found by gen -kind intent, seed
// 400200): an intent sent with no slot map is accepted and transitions
// with slots null, as outside one; a slot refusal (INVALID_SLOT_VALUE)
// names the parallel root as its state, as the other refusals there do.
func TestParallelSlotPayloads(t *testing.T) {
	m := compileSource(t, "par.yaml", `app: {id: par}
intents:
  go: {}
  put:
    slots:
      c: {type: enum, values: [red]}
root: p
states:
  p:
    type: parallel
    states:
      ra:
        type: compound
        initial: a1
        states:
          a1: {on: {go: [{target: p.ra.a2}], put: [{target: .}]}}
          a2: {on: {go: [{target: p.ra.a1}]}}
      rb:
        type: compound
        initial: b1
        states:
          b1: {on: {go: [{target: .}]}}
`, CompileOptions{})
	sink := &recSink{}
	s, err := Start(t.Context(), m, SessionOptions{Options: Options{Sink: sink}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Fire(t.Context(), Input{Intent: "go"}); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{KindIntentAccepted, KindTransition} {
		evs := sink.kinds(kind)
		if len(evs) != 1 {
			t.Fatalf("%s: %d events", kind, len(evs))
		}
		if p := payloadMap(t, evs[0].Payload); p["slots"] != nil {
			t.Errorf("%s slots %v, want null", kind, p["slots"])
		}
	}
	if _, err := s.Fire(t.Context(), Input{Intent: "go", Slots: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if p := payloadMap(t, sink.kinds(KindTransition)[1].Payload); p["slots"] == nil {
		t.Errorf("an empty slot map sent: transition slots null, want {}")
	}
	tn, err := s.Fire(t.Context(), Input{Intent: "put", Slots: map[string]any{"c": "blue"}})
	if err != nil || tn.Rejection == nil || tn.Rejection.Code != CodeInvalidSlot {
		t.Fatalf("put c=blue: %+v %v", tn, err)
	}
	evs := sink.kinds(KindValidationFailed)
	if len(evs) != 1 {
		t.Fatalf("%d validation_failed events", len(evs))
	}
	if p := payloadMap(t, evs[0].Payload); p["state"] != "p" {
		t.Errorf("validation_failed state %v, want the root p", p["state"])
	}
}
