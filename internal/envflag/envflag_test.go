package envflag

import "testing"

func TestParse(t *testing.T) {
	for v, want := range map[string]struct{ on, ok bool }{
		"1": {true, true}, " TRUE ": {true, true}, "yes": {true, true}, "On": {true, true},
		"": {false, true}, "0": {false, true}, "false": {false, true}, "NO": {false, true}, "off": {false, true},
		"maybe": {false, false}, "2": {false, false}, "y": {false, false},
	} {
		if on, ok := Parse(v); on != want.on || ok != want.ok {
			t.Errorf("Parse(%q) = %v, %v; want %v, %v", v, on, ok, want.on, want.ok)
		}
	}
}
