package fastpath

import "testing"

// Off is true for each spelling that turns a fast path off, in any case,
// and false when the variable is unset or holds anything else.
func TestOff(t *testing.T) {
	const name = "KITSOKI_FASTPATH_TEST_SWITCH"
	for value, want := range map[string]bool{
		"0": true, "false": true, "FALSE": true, "Off": true, "no": true,
		"": false, "1": false, "true": false, "on": false, "nope": false,
	} {
		t.Setenv(name, value)
		if got := Off(name); got != want {
			t.Errorf("%s=%q: Off %v, want %v", name, value, got, want)
		}
	}
}
