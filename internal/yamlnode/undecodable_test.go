package yamlnode

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Undecodable places what yaml.v3 refuses to decode into any, and nothing
// it decodes: an alias key is not its anchor's text, a quoted !!int reads.
func TestUndecodable(t *testing.T) {
	for src, want := range map[string]string{
		"a: 1\nb: {c: [1, !!float x]}\n": `f.yaml:2:12: b.c[1]: "x" is not a number: drop the tag !!float`,
		"a: !!binary '%%'\n":             "f.yaml:1:4: a: the !!binary value is not base64",
		"x: &s 3\nm: {<<: [*s]}\n":       `f.yaml:2:10: m.<<: merges a mapping or a list of mappings, got "3" as item 0`,
		"a: 1\nb: 2\na: 3\n":             "f.yaml:3:1: a: given twice in one mapping (first at line 1, column 1): keep one",
		"x: &k a\n*k : 1\na: 2\n":        "",
		"n: !!int '12'\n<<: {q: 1}\n":    "",
		"l: [!!null x]\n":                `f.yaml:1:5: l[0]: "x" is not null: drop the tag !!null`,
		"t: !!timestamp soon\n":          `f.yaml:1:4: t: "soon" is not a timestamp`,
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		var v any
		decodeErr := doc.Decode(&v)
		w := NewFileWalker("f.yaml", len(src))
		w.Undecodable(doc.Content[0], Place{})
		err := w.Err()
		switch {
		case want == "" && (err != nil || decodeErr != nil):
			t.Errorf("%q: %v (decode: %v), want nothing", src, err, decodeErr)
		case want != "" && (err == nil || !strings.HasPrefix(err.Error(), want) || decodeErr == nil):
			t.Errorf("%q: %v (decode: %v)\nwant %s", src, err, decodeErr, want)
		}
	}
}
