package yamlnode

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// A surrogate pair reads as its character in a double-quoted scalar and
// stays text where a backslash is no escape; a lone half is still refused.
func TestSurrogatePairs(t *testing.T) {
	src := "a: \"x\\ud83d\\udc4dy\\uD83D\\uDC4D\"\n" +
		"b: '\\ud83d\\udc4d'\n" +
		"c: plain\\ud83d\\udc4d # \\ud83d\\udc4d\n" +
		"d: \"\\\\ud83d\\\\udc4d\"\n" +
		"e: \"\\ud800\\udc00\\udbff\\udfff\"\n"
	data, undo := MaskSurrogatePairs([]byte(src))
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("masked text does not parse: %v\n%s", err, data)
	}
	UnmaskSurrogatePairs(&doc, undo)
	want := map[string]string{"a": "x👍y👍", "b": `\ud83d\udc4d`, "c": `plain\ud83d\udc4d`, "d": `\ud83d\udc4d`, "e": "\U00010000\U0010FFFF"}
	m := doc.Content[0].Content
	for i := 0; i < len(m); i += 2 {
		if got := m[i+1].Value; got != want[m[i].Value] {
			t.Errorf("%s = %q, want %q", m[i].Value, got, want[m[i].Value])
		}
	}
	if c := m[5].LineComment; c != `# \ud83d\udc4d` {
		t.Errorf("comment = %q", c)
	}
	for _, s := range []string{"a: \"\\udc4d\"\n", "a: \"\\ud83d\"\n", "a: \"no escape\"\n"} {
		if out, undo := MaskSurrogatePairs([]byte(s)); string(out) != s || undo != nil {
			t.Errorf("MaskSurrogatePairs(%q) = %q, %v: want it unchanged", s, out, undo)
		}
	}
	// the same character also written as its \U escape: not undoable, left alone
	s := "a: \"\\ud83d\\udc4d\"\nb: '\\U0001f44d'\n"
	if out, undo := MaskSurrogatePairs([]byte(s)); string(out) != s || undo != nil {
		t.Errorf("MaskSurrogatePairs(%q) = %q: want it unchanged", s, out)
	}
}
