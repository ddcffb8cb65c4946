// Package refusal owns the test-only check that a refusal of user input
// reads as the house's rules ask ([Leads], [Names]): it names its place (the
// file), is one line, and names no Go type ([kitsoki/internal/testing/gotype.Named]).
// It must not be imported outside tests, nor know any message of its callers.
package refusal

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/gotype"
)

// Leads fails t when msg, a refusal of input, does not start with place,
// runs over one line or names a Go type.
func Leads(t testing.TB, input []byte, msg, place string) {
	t.Helper()
	if f := fault(msg, input, place, true); f != "" {
		t.Fatalf("%q: refusal %q %s", input, msg, f)
	}
}

// Names is [Leads] for a refusal that holds place anywhere (after a
// "cassette: " or "eval report " of its own).
func Names(t testing.TB, input []byte, msg, place string) {
	t.Helper()
	if f := fault(msg, input, place, false); f != "" {
		t.Fatalf("%q: refusal %q %s", input, msg, f)
	}
}

// fault says what keeps msg from naming place (leading with it when lead)
// on one line without a Go type, or "".
func fault(msg string, input []byte, place string, lead bool) string {
	switch {
	case lead && !strings.HasPrefix(msg, place):
		return "does not start with " + place
	case !strings.Contains(msg, place):
		return "does not name " + place
	case strings.ContainsAny(msg, "\n\r"):
		return "is more than one line"
	}
	if n := gotype.Named(msg, input); n != "" {
		return "names a Go type (" + n + ")"
	}
	return ""
}
