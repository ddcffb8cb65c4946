package engine

import (
	"strings"
	"testing"
)

// Declared slots shape --intent inputs: defaults fill left-out slots
// (global and state-local intents), a missing required slot and a value
// outside an enum's values: reject the input.
func TestInputSlots(t *testing.T) {
	res, _ := runStory(t, "slots", "", Options{Inputs: []Input{{Intent: "paint", Slots: map[string]any{"color": "red"}}}})
	wantOutcome(t, res, OutcomeRested, "canvas")
	if res.World["color"] != "red" || res.World["size"] != 3 {
		t.Errorf("world %v: want color red, size from the slot default 3", res.World)
	}
	res, _ = runStory(t, "slots", "", Options{Inputs: []Input{{Intent: "mix"}}})
	if res.Err != nil || res.World["color"] != "purple" {
		t.Errorf("state-local default: %v %v", res.World, res.Err)
	}
	for _, tc := range []struct {
		slots map[string]any
		want  string
	}{
		{nil, `intent "paint": slot "color" is required and has no default; pass --slot color=VALUE`},
		{map[string]any{"color": "green"}, `intent "paint": slot "color" = green is not one of its values: red, blue`},
	} {
		res, sink := runStory(t, "slots", "", Options{Inputs: []Input{{Intent: "paint", Slots: tc.slots}}})
		if res.Outcome != OutcomeFailed || res.Err == nil || !strings.Contains(res.Err.Error(), tc.want) {
			t.Errorf("slots %v: outcome %s err %v, want %s", tc.slots, res.Outcome, res.Err, tc.want)
		}
		if len(sink.kinds(KindValidationFailed)) != 1 || len(sink.kinds(KindTransition)) != 0 {
			t.Errorf("slots %v: the input was not rejected before any transition", tc.slots)
		}
	}
}

// A slot validator: is refused by position, never skipped.
func TestSlotValidatorRefused(t *testing.T) {
	st := loadStory(t, "slots")
	st.Intents["paint"].Slots["size"].Validator = "value > 0"
	_, err := Compile(st, CompileOptions{})
	if err == nil || !strings.Contains(err.Error(), `app.yaml:9:`) || !strings.Contains(err.Error(), `intents.paint.slots.size: validator: kitsoki run does not evaluate slot validators`) {
		t.Fatalf("err = %v", err)
	}
}
