package schema

import "testing"

func TestDecimalArithmetic(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		cmp  int
	}{
		{"1", "1.0", 0}, {"-0", "0", 0}, {"0.1", "1e-1", 0}, {"10", "9.99", 1}, {"-10", "-9", -1},
		{"1e400", "1e399", 1}, {"-1e-400", "0", -1}, {"123456789012345678901234567890", "1.2345678901234567890123456789e29", 0},
		{"0.30000000000000004", "0.3", 1}, {"1e999999999999999999999", "1", 1}, {"1e-999999999999999999999", "0", 1},
	} {
		a, ok1 := parseDecimal(tc.a)
		b, ok2 := parseDecimal(tc.b)
		if !ok1 || !ok2 {
			t.Fatalf("parse %q %q", tc.a, tc.b)
		}
		if got := a.cmp(b); got != tc.cmp {
			t.Errorf("cmp(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.cmp)
		}
	}
	for _, tc := range []struct {
		a, m string
		want bool
	}{
		{"10", "2", true}, {"10", "3", false}, {"0.3", "0.1", true}, {"0.35", "0.1", false}, {"4.5", "1.5", true},
		{"1e308", "7", false}, {"7e308", "7", true}, {"0", "0.7", true}, {"1e-5", "1e-6", true}, {"1e-6", "1e-5", false},
		{"1e999999999", "1e-999999999", true}, {"3e999999999", "2", true}, {"3e999999999", "7", false},
	} {
		a, _ := parseDecimal(tc.a)
		m, _ := parseDecimal(tc.m)
		if got := a.multipleOf(m); got != tc.want {
			t.Errorf("%s multipleOf %s = %v, want %v", tc.a, tc.m, got, tc.want)
		}
	}
}

// TestHugeExponents: exponents the library expanded with big.Rat cost the
// engine nothing, and the verdicts are exact.
func TestHugeExponents(t *testing.T) {
	s, err := CompileBytes("big.json", []byte(`{"multipleOf":1e-999999999,"maximum":1e999999999,"exclusiveMinimum":-1e999999999}`))
	if err != nil {
		t.Fatal(err)
	}
	if ve := s.ValidateJSON([]byte(`1e999999998`)); ve != nil {
		t.Fatal(ve)
	}
	if ve := s.ValidateJSON([]byte(`2e999999999`)); ve == nil || ve.Constraint != "maximum" {
		t.Fatalf("got %v", ve)
	}
	if ve := s.ValidateJSON([]byte(`-1e999999999`)); ve == nil || ve.Constraint != "exclusiveMinimum" {
		t.Fatalf("got %v", ve)
	}
	if ve := s.ValidateJSON([]byte(`1e-1000000000`)); ve == nil || ve.Constraint != "multipleOf" {
		t.Fatalf("got %v", ve)
	}
}
