package refusal

import "testing"

// fault finds each way a refusal can miss, and passes one that misses none.
func TestFault(t *testing.T) {
	for _, c := range []struct {
		msg, input, place string
		lead              bool
		want              string
	}{
		{"f.yaml:1:2: bad key", "", "f.yaml", true, ""},
		{"cassette: f.yaml:1:2: bad key", "", "f.yaml", false, ""},
		{"cassette: f.yaml:1:2: bad key", "", "f.yaml", true, "does not start with f.yaml"},
		{"bad key", "", "f.yaml", false, "does not name f.yaml"},
		{"f.yaml: bad\nkey", "", "f.yaml", true, "is more than one line"},
		{"f.yaml: bad\rkey", "", "f.yaml", true, "is more than one line"},
		{"f.yaml: cannot unmarshal into Go struct field x", "", "f.yaml", true, "names a Go type (Go struct)"},
		{"f.yaml: a is map[string]interface {}", "", "f.yaml", true, "names a Go type (interface {})"},
		// a message may quote the input's own words
		{"f.yaml: unknown key \"map[string]x\"", "map[string]x: 1", "f.yaml", true, ""},
	} {
		if got := fault(c.msg, []byte(c.input), c.place, c.lead); got != c.want {
			t.Errorf("fault(%q, %q, %q, %v) = %q, want %q", c.msg, c.input, c.place, c.lead, got, c.want)
		}
	}
}

// recorder is a testing.TB whose Fatalf records the failure instead of
// ending the test.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) { r.failed = format }

// Leads and Names fail the test on a fault, and only then.
func TestLeadsNamesFail(t *testing.T) {
	for name, check := range map[string]func(testing.TB, []byte, string, string){"Leads": Leads, "Names": Names} {
		r := &recorder{TB: t}
		check(r, nil, "f.yaml: a\nb", "f.yaml")
		if r.failed == "" {
			t.Errorf("%s passed a message of two lines", name)
		}
		r = &recorder{TB: t}
		check(r, nil, "f.yaml: a", "f.yaml")
		if r.failed != "" {
			t.Errorf("%s failed a good message", name)
		}
	}
}
