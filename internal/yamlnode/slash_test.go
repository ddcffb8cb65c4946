package yamlnode

import (
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlfast"
)

// `\/` reads as "/" in a double-quoted scalar and stays the text `\/`
// elsewhere, through yamlfast and yaml.v3 alike, with every position kept.
func TestSlashEscapes(t *testing.T) {
	src := "a: \"x\\/y\" # c\\/d\nb: 'x\\/y'\nc: x\\/y\nd: \"x\\\\/y\"\n\"k\\/k\": |\n  x\\/y\ne: [\"p\\/q\", r\\/s]\nf: after\n"
	want := map[string]string{"a": "x/y", "b": `x\/y`, "c": `x\/y`, "d": `x\/y`, "k/k": "x\\/y\n", "e0": "p/q", "e1": `r\/s`}
	masked, ok := MaskSlashEscapes([]byte(src))
	if !ok || len(masked) != len(src) {
		t.Fatalf("masked %v, %d bytes for %d", ok, len(masked), len(src))
	}
	fast, declined, _ := yamlfast.ParseWithin(masked, 0)
	fastOK := declined == nil
	var slow yaml.Node
	if err := yaml.Unmarshal(masked, &slow); err != nil {
		t.Fatal(err)
	}
	for name, doc := range map[string]*yaml.Node{"yaml.v3": &slow, "yamlfast": fast} {
		if doc == nil {
			if fastOK {
				t.Fatal("yamlfast: ok without a tree")
			}
			continue
		}
		UnmaskSlashEscapes(doc)
		m := doc.Content[0]
		got := map[string]string{}
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], m.Content[i+1]
			if v.Kind == yaml.SequenceNode {
				got[k.Value+"0"], got[k.Value+"1"] = v.Content[0].Value, v.Content[1].Value
				continue
			}
			got[k.Value] = v.Value
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s = %q, want %q", name, k, got[k], v)
			}
		}
		if f := m.Content[len(m.Content)-1]; f.Line != 8 || f.Column != 4 {
			t.Errorf("%s: f's value at %d:%d, want 8:4", name, f.Line, f.Column)
		}
	}
	if slow.Content[0].Content[1].LineComment != `# c\/d` {
		t.Errorf("comment %q", slow.Content[0].Content[1].LineComment)
	}
	// A text from which a BEL or a literal `\a` could also come is left as
	// it is (yaml.v3 refuses its `\/` as before).
	for _, s := range []string{"a: \"x\\/y\\a\"", "a: \"x\\/y\"\nb: \\a", "a: \"x\\/y\\x07\"", "a: \"x\\/y\\u005C\""} {
		if out, ok := MaskSlashEscapes([]byte(s)); ok || string(out) != s {
			t.Errorf("%q masked", s)
		}
	}
	if _, ok := MaskSlashEscapes([]byte("a: \"x/y\"")); ok {
		t.Error("a text without \\/ masked")
	}
}

// Unmarshal reads a data file's `\/` as Mask/Unmask do, and reports
// yaml.v3's error for a file that does not parse.
func TestUnmarshalReadsSlashEscapes(t *testing.T) {
	var doc yaml.Node
	if err := Unmarshal([]byte("a: \"x\\/y\"\nb: 'x\\/y'\n"), &doc); err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := doc.Decode(&m); err != nil || m["a"] != "x/y" || m["b"] != `x\/y` {
		t.Fatalf("%v %q", err, m)
	}
	if err := Unmarshal([]byte("a: \"x\\/y\\a\""), &yaml.Node{}); err == nil {
		t.Fatal("a text the mask cannot undo parsed")
	}
}
