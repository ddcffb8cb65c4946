package yamlnode

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// refused reports whether err refuses a file for its size (a *SizeError
// or a *Declined) rather than for YAML that does not parse.
func refused(err error) bool {
	_, s := errors.AsType[*SizeError](err)
	_, d := errors.AsType[*Declined](err)
	return s || d
}

// StreamWithin counts every document of a file that could pass the limit
// (more than 2/3 of it in bytes), not only the first: a later document
// past it is refused at its node past the limit, one only yaml.v3 parses
// is declined, and a file within it, or too small to pass it, is let be.
func TestStreamWithinCountsLaterDocuments(t *testing.T) {
	list := "[" + strings.Repeat("1, ", 2000) + "1]\n"
	pad := "# " + strings.Repeat("x", 1000) + "\n"
	for _, tc := range []struct {
		name, data string
		line       int  // of the SizeError, 0: none
		declined   bool // a *Declined
	}{
		{name: "later document over", data: "a: 1\n---\n" + list, line: 3},
		{name: "first document over", data: "a: " + list, line: 1},
		{name: "later complex key", data: pad + "a: 1\n---\n? [k]\n: v\n", declined: true},
		{name: "within", data: pad + "a: 1\n---\nb: [1, 2]\n---\n- c\n"},
		{name: "small", data: "a: 1\n---\n? [k]\n: v\n"},
	} {
		err := StreamWithin([]byte(tc.data), 1000)
		s, isSize := errors.AsType[*SizeError](err)
		_, isDeclined := errors.AsType[*Declined](err)
		switch {
		case tc.line > 0 && (!isSize || s.Line != tc.line || !strings.Contains(s.Msg, "more than 1000 YAML nodes")):
			t.Errorf("%s: %v, want the node limit's at line %d", tc.name, err, tc.line)
		case tc.declined != isDeclined:
			t.Errorf("%s: %v, declined %v", tc.name, err, tc.declined)
		case tc.line == 0 && !tc.declined && err != nil:
			t.Errorf("%s: %v, want none", tc.name, err)
		case err != nil && !refused(err):
			t.Errorf("%s: %v is not a refusal for size", tc.name, err)
		}
	}
}

// UnmarshalPlain reads as yaml.Unmarshal within the limit (no `\/` read)
// and refuses past it; bad YAML is no refusal for size.
func TestUnmarshalPlain(t *testing.T) {
	var doc yaml.Node
	big := "a: [" + strings.Repeat("1,", MaxTreeNodes) + "1]\n"
	if err := UnmarshalPlain([]byte(big), &doc); !refused(err) || !strings.HasPrefix(err.Error(), "yaml: line 1: column ") {
		t.Errorf("past the limit: %.200v", err)
	}
	if err := UnmarshalPlain([]byte("a: [1"), &doc); err == nil || refused(err) {
		t.Errorf("bad YAML: %v", err)
	}
	if err := UnmarshalPlain([]byte("# none\n"), &doc); err != nil || doc.Kind != 0 {
		t.Errorf("no document: %v %v", err, doc.Kind)
	}
	if err := UnmarshalPlain([]byte("a: b\n"), &doc); err != nil || doc.Content[0].Content[1].Value != "b" {
		t.Errorf("a small file: %v", err)
	}
}
