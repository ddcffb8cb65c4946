package agent

import (
	"errors"
	"testing"
)

// FuzzParseError: the text AskError.Error writes for any kind and detail
// reads back as that kind and detail; any other text is either refused or
// read as a kind and detail that write it back unchanged.
func FuzzParseError(f *testing.F) {
	f.Add(uint8(0), "bad answer", "agent: schema_invalid: x")
	f.Add(uint8(3), "", "agent: nope")
	f.Add(uint8(6), "a: b: c", "agent: plugin_crash:")
	f.Add(uint8(1), "", "agent: plugin_crash: ")
	f.Fuzz(func(t *testing.T, k uint8, detail, text string) {
		kinds := Kinds()
		want := kinds[int(k)%len(kinds)]
		e := &AskError{Kind: want, Detail: detail}
		if kind, d, ok := ParseError(e.Error()); !ok || kind != want || d != detail {
			t.Fatalf("%q read as %q, %q, %v; want %q, %q", e.Error(), kind, d, ok, want, detail)
		}
		if kind, d, ok := ParseError(text); ok {
			// the detail as given, or an underlying error's text (an empty
			// one after "kind: "); a bare "agent: kind" has neither
			back := (&AskError{Kind: kind, Underlying: errors.New(d)}).Error()
			if text == "agent: "+string(kind) {
				back = (&AskError{Kind: kind}).Error()
			}
			if back != text {
				t.Fatalf("%q read as %q, %q, which writes %q", text, kind, d, back)
			}
		}
	})
}
