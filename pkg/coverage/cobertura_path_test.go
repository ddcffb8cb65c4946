package coverage

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

// TestCoberturaPathXMLCannotHold: a story path holding a character XML
// cannot hold is refused with an error naming it, nothing written; a path
// XML can hold (line breaks, tab, astral runes) comes back unchanged from
// the XML. Before, encoding/xml wrote U+FFFD in its place and the report
// named another file.
func TestCoberturaPathXMLCannotHold(t *testing.T) {
	for _, p := range []string{"st/\uFFFEapp.yaml", "st/\uFFFF.yaml", "st/a\x01.yaml", "st/\xffbad.yaml", "st/\x00.yaml"} {
		var b bytes.Buffer
		err := WriteCobertura(&b, &Profile{Files: []*File{{Path: p}}})
		if err == nil {
			t.Errorf("%q: written as %q", p, b.String())
			continue
		}
		if !strings.Contains(err.Error(), "cannot hold the path") || !strings.Contains(err.Error(), "LCOV or JSON") {
			t.Errorf("%q: %v", p, err)
		}
		if b.Len() != 0 {
			t.Errorf("%q: %d bytes written before the error", p, b.Len())
		}
	}
	for _, p := range []string{"st/a\nb.yaml", "st/\tt\r.yaml", "st/\U0001F600.yaml", "st/\uFFFD.yaml", "st/é.yaml"} {
		if err := coberturaRoundTrip(t, p); err != nil {
			t.Errorf("%q: %v", p, err)
		}
	}
}

// FuzzCoberturaPath: whatever a story's path holds, the Cobertura XML
// either names it exactly (read back with encoding/xml) or is refused.
func FuzzCoberturaPath(f *testing.F) {
	for _, s := range []string{"a/app.yaml", "a/\uFFFE", "\xff", "a\r\nb", "\x00", "\U0010FFFF", "a/\uD7FF\uE000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		_ = coberturaRoundTrip(t, p) // refused: fine
	})
}

// coberturaRoundTrip writes a profile of the one path p as Cobertura and
// fails t unless the XML names p exactly; WriteCobertura's error is
// returned.
func coberturaRoundTrip(t *testing.T, p string) error {
	t.Helper()
	var b bytes.Buffer
	if err := WriteCobertura(&b, &Profile{Files: []*File{{Path: p}}}); err != nil {
		return err
	}
	var doc cobCoverage
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%q: %v", p, err)
	}
	if got := doc.Packages[0].Classes[0].Filename; got != p {
		t.Fatalf("%q came back as %q", p, got)
	}
	return nil
}
