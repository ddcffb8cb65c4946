package engine

import (
	"strings"
	"testing"
)

// Declared slots shape --intent inputs: defaults fill left-out slots
// (global and state-local intents), a missing required slot and a value
// outside an enum's values: reject the input.
func TestInputSlots(t *testing.T) {
	res, _ := runWant(t, "slots", "", Options{Inputs: []Input{{Intent: "paint", Slots: map[string]any{"color": "red"}}}}, OutcomeRested, "canvas")
	if res.World["color"] != "red" || !sameNum(res.World["size"], 3) {
		t.Errorf("world %v: want color red, size from the slot default 3", res.World)
	}
	// an empty slot map, as `kitsoki run --intent` sends
	res, _ = runStory(t, "slots", "", Options{Inputs: []Input{{Intent: "mix", Slots: map[string]any{}}}})
	if res.Err != nil || res.World["color"] != "purple" {
		t.Errorf("state-local default: %v %v", res.World, res.Err)
	}
	// no slot map at all (a fixture turn without slots:) gets no default
	// written, as upstream (conformance intent-slot-defaults)
	res, _ = runStory(t, "slots", "", Options{Inputs: []Input{{Intent: "mix"}}})
	if res.Err != nil || res.World["color"] == "purple" {
		t.Errorf("no slot map: %v %v", res.World, res.Err)
	}
	// a missing required slot is a clarification: no event, no turn
	// number (story-runtime §1.2); the other refusals are turns
	for _, tc := range []struct {
		slots    map[string]any
		want     string
		refusals int
	}{
		{nil, `intent "paint": intent requires slots: [color]; pass --slot NAME=VALUE`, 0},
		{map[string]any{"color": "green"}, `intent "paint": slot "color" value "green" is not one of [red blue]`, 1},
		{map[string]any{"color": "red", "size": "big"}, `slot "size" value "big" is not an integer (the slot is type: int)`, 1},
	} {
		res, sink := runStory(t, "slots", "", Options{Strict: true, Inputs: []Input{{Intent: "paint", Slots: tc.slots}}})
		if res.Outcome != OutcomeFailed || res.Err == nil || !strings.Contains(res.Err.Error(), tc.want) {
			t.Errorf("slots %v: outcome %s err %v, want %s", tc.slots, res.Outcome, res.Err, tc.want)
		}
		if len(sink.kinds(KindValidationFailed)) != tc.refusals || len(sink.kinds(KindTransition)) != 0 {
			t.Errorf("slots %v: the input was not rejected before any transition", tc.slots)
		}
	}
}

// With Strict a slot validator: is evaluated (upstream never does): a value
// it refuses rejects the intent as INVALID_SLOT_VALUE.
func TestSlotValidatorEnforced(t *testing.T) {
	st := loadStory(t, "slots")
	st.Intents["paint"].Slots["size"].Validator = "slots.size > 2"
	m, err := Compile(st, CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Start(t.Context(), m, SessionOptions{Options: Options{Strict: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tn, err := s.Fire(t.Context(), Input{Intent: "paint", Slots: map[string]any{"color": "red", "size": 1}})
	if err != nil || tn.Rejection == nil || tn.Rejection.Code != CodeInvalidSlot || !strings.Contains(tn.Rejection.Message, "fails its validator: slots.size > 2") {
		t.Fatalf("turn %+v err %v", tn, err)
	}
	tn, _ = s.Fire(t.Context(), Input{Intent: "paint", Slots: map[string]any{"color": "red", "size": 5}})
	if tn.Rejection != nil || toString(s.World()["size"]) != "5" {
		t.Fatalf("valid value rejected: %+v world %v", tn.Rejection, s.World())
	}
}
