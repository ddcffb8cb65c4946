package lint

import "testing"

// parsesAs takes a set's string as the engine coerces it (conformance
// values-set-coercion-exact): exactly true/false for a bool, a number with
// no spaces around it; anything else stays a string in both modes and is
// no strict mismatch.
func TestParsesAsCoercesAsTheEngine(t *testing.T) {
	for _, c := range []struct {
		s, typ, want string
		ok           bool
	}{
		{"false", "bool", "false", true},
		{"True", "bool", "", false},
		{"1", "bool", "", false},
		{" true", "bool", "", false},
		{"+5", "int", "5", true},
		{" 7", "int", "", false},
		{"1e3", "float", "1000", true},
		{"2.5", "int", "", false},
	} {
		got, ok := parsesAs(c.s, c.typ)
		if got != c.want || ok != c.ok {
			t.Errorf("parsesAs(%q, %s) = %q %v, want %q %v", c.s, c.typ, got, ok, c.want, c.ok)
		}
	}
}
