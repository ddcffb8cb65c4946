package flowtest

import "testing"

// A fixture value written without a decimal point that yaml.v3 reads as a
// float is its text, as in the story (internal/yamlnode.PointlessFloat).
func TestFixtureValuesPointlessFloatsAreText(t *testing.T) {
	fxs, ds := parseOne(t, "test_kind: flow\ninitial_state: a\nturns:\n  - intent: go\n    expect_world: {a: 1e3, b: 08, c: 1.0e3, d: .inf}\n")
	if len(fxs) != 1 || len(fxs[0].Turns) != 1 {
		t.Fatalf("fixtures %v, diagnostics %v", fxs, ds)
	}
	want := map[string]any{"a": "1e3", "b": "08", "c": 1000.0}
	for _, kv := range fxs[0].Turns[0].ExpectWorld {
		if w, ok := want[kv.Key]; ok && kv.Value != w {
			t.Errorf("%s = %#v, want %#v", kv.Key, kv.Value, w)
		}
		delete(want, kv.Key)
	}
	if len(want) > 0 {
		t.Errorf("not read: %v", want)
	}
}
