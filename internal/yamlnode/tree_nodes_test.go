package yamlnode

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/testing/allocs"
	"kitsoki/internal/yamlfast"
)

// Decode stops a document at the node past its limit on both parsers:
// yamlfast's (which counts a file that could pass the limit first) and
// yaml.v3's (an anchor, alias or tag turns yamlfast down: the file is
// counted with them masked before yaml.v3 builds anything; a 60 MB list
// behind an anchor took validate past 4 GB), at the same place; a
// document within the limit is whole.
func TestDecodeStopsPastTheNodeLimit(t *testing.T) {
	const limit = 1000
	list := "[" + strings.Repeat("1, ", 200_000) + "1]"
	for name, c := range map[string]struct {
		src       string
		over      bool
		line, col int
		allocMB   float64
	}{
		"fast":         {"a: " + list + "\n", true, 1, 5 + 3*(limit-4), 2},
		"yaml.v3":      {"a: &x " + list + "\n", true, 1, 8 + 3*(limit-4), 2},
		"alias, tag":   {"a: &x [1]\nb: !!seq " + list + "\nc: *x\n", true, 2, 11 + 3*(limit-7), 2},
		"under":        {"a: [1, 2]\nb: {c: d}\n", false, 0, 0, 0},
		"under, alias": {"a: &x [1, 2]\nb: *x\n", false, 0, 0, 0},
	} {
		t.Run(name, func(t *testing.T) {
			var doc *yaml.Node
			var over *Over
			var err error
			spent := allocs.During(func() { doc, over, err = Decode([]byte(c.src), limit) })
			if err != nil {
				t.Fatal(err)
			}
			if (over != nil) != c.over || (over == nil) == (doc == nil) {
				t.Fatalf("over %v, doc %v; want over %v and a tree only without it", over, doc != nil, c.over)
			}
			// the document, the mapping, a and the list come first: item limit-4
			// (0-based, 3 columns each) is the node past the limit (limit-7
			// after a: &x [1] and b)
			if over != nil && (over.Line != c.line || over.Col != c.col) {
				t.Errorf("over at %d:%d, want %d:%d", over.Line, over.Col, c.line, c.col)
			}
			if mb := float64(spent) / (1 << 20); c.allocMB > 0 && mb > c.allocMB {
				t.Errorf("allocated %.1f MB past a %d-node limit, want at most %.0f", mb, limit, c.allocMB)
			}
		})
	}
}

// countable keeps yaml.v3's node count: yamlfast parses the masked text
// into exactly as many nodes as yaml.v3's tree of the original holds.
func TestCountableKeepsTheNodeCount(t *testing.T) {
	t.Setenv(yamlfast.SwitchEnv, "") // ParseWithin counts here; KITSOKI_YAMLFAST=0 would turn it off
	for _, src := range []string{
		"a: &x [1, 2]\nb: *x\n",
		"base: &b {k: 1, j: [2, 3]}\nother:\n  <<: *b\n  m: !!str 5\n",
		"- &a x\n- *a\n- !local {p: *a, q: [*a, *a]}\n",
		"a: &e\nb: [&f 1, *f, !!int 2]\nc: 'not &an anchor, *nor an alias'\nd: plain & text * here ! too\n",
		"s: |\n  one &literal *text !here\n# &comment *too\nt: {u: &v w, x: *v}\n",
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		n := 1
		for nodePast(&doc, n) != nil {
			n++
		}
		if _, d, over := yamlfast.ParseWithin(countable([]byte(src)), n); d != nil || over != nil {
			t.Errorf("%q: the masked text %q does not parse within yaml.v3's %d nodes (declined %v, over %v)", src, countable([]byte(src)), n, d, over)
		}
		if _, _, over := yamlfast.ParseWithin(countable([]byte(src)), n-1); over == nil {
			t.Errorf("%q: the masked text %q parses within %d nodes, fewer than yaml.v3's %d", src, countable([]byte(src)), n-1, n)
		}
	}
}

// Unmarshal (cassettes, recordings, world files) holds the same limit:
// past it, yaml.v3's "line N:" form of error, which each reader places
// in its file (ErrLine), naming the fix; an empty file stays no document.
func TestUnmarshalStopsPastTheNodeLimit(t *testing.T) {
	var doc yaml.Node
	err := unmarshalWithin([]byte("a: \"\\/\"\nb: ["+strings.Repeat("1, ", 2000)+"1]\n"), &doc, 1000)
	if line, msg := ErrLine(err); err == nil || line != 2 || !strings.Contains(msg, "more than 1000 YAML nodes") || !strings.Contains(msg, "split it") {
		t.Fatalf("err = %v; want the node limit's at line 2", err)
	}
	if err := unmarshalWithin([]byte("# nothing\n"), &doc, 1000); err != nil || doc.Kind != 0 {
		t.Fatalf("an empty file: err %v, kind %v", err, doc.Kind)
	}
	if err := unmarshalWithin([]byte("a: \"x\\/y\"\n"), &doc, 1000); err != nil || doc.Content[0].Content[1].Value != "x/y" {
		t.Fatalf("a small file: err %v, %+v", err, doc)
	}
}

// A file yamlfast turns down even masked (a complex key) that could pass
// the limit (more than 2/3 limit bytes) is refused at the place yamlfast
// stopped, before yaml.v3 builds any of it: a 20 MB list after one
// "? k" key took validate 24 s and 2.3 GB. Masked tabs, a lone carriage
// return and an anchor alone on its line are counted, and a small file
// with a complex key is still yaml.v3's.
func TestDecodeRefusesALargeFileOnlyYAMLv3Reads(t *testing.T) {
	const limit = 1000
	list := "[" + strings.Repeat("1, ", 200_000) + "1]"
	for name, c := range map[string]struct {
		src       string
		declined  bool
		line, col int
	}{
		"complex key":      {"? k\n: v\na: " + list + "\n", true, 1, 1},
		"complex key late": {"a: " + strings.Repeat("x", 2000) + "\nb:\n  ? k\n  : v\n", true, 3, 3},
		"tab in a list":    {"a: [1,\t" + list[1:] + "\n", false, 0, 0},
		"lone CR":          {"x: 1\ra: " + list + "\n", false, 0, 0},
		"anchor own line":  {"a:\n  &x\n  " + list + "\n", false, 0, 0},
	} {
		t.Run(name, func(t *testing.T) {
			var over *Over
			var err error
			spent := allocs.During(func() { _, over, err = Decode([]byte(c.src), limit) })
			var d *Declined
			if got := errors.As(err, &d); got != c.declined || !c.declined && over == nil {
				t.Fatalf("err %v, over %v; want declined %v, else over", err, over, c.declined)
			}
			if d != nil && (d.Line != c.line || d.Col != c.col) {
				t.Errorf("declined at %d:%d, want %d:%d", d.Line, d.Col, c.line, c.col)
			}
			if mb := float64(spent) / (1 << 20); mb > 3 {
				t.Errorf("allocated %.1f MB for a %d-node limit, want at most 3 (yaml.v3's whole tree is about 40)", mb, limit)
			}
		})
	}
	if doc, over, err := Decode([]byte("? k\n: v\n"), limit); err != nil || over != nil || len(doc.Content[0].Content) != 2 {
		t.Errorf("a small file with a complex key: %v, %v", err, over)
	}
	// yaml.v3 reads the first document only: what yamlfast turns down in a
	// later one (a complex key, too many nodes) leaves the first to it
	for _, later := range []string{"? k\n: v\n" + list, list} {
		doc, over, err := Decode([]byte("a: [1, 2]\n---\n"+later+"\n"), limit)
		if err != nil || over != nil || len(doc.Content[0].Content) != 2 {
			t.Errorf("a later document %.20q: %v, %v", later, err, over)
		}
	}
}

// Decode reads the first document of a file yamlfast turned down only in
// a later one without counting it again: yamlfast's parse held it whole
// within the limit (the count copied the file and walked it once more).
// With KITSOKI_YAMLFAST=0 the count is Decode's only one, as before.
func TestDecodeCountsNoFirstDocumentTwice(t *testing.T) {
	t.Setenv(yamlfast.SwitchEnv, "")
	data := []byte("a: 1\n---\n[" + strings.Repeat("1, ", 200_000) + "1]\n")
	var doc *yaml.Node
	var err error
	spent := allocs.During(func() { doc, _, err = Decode(data, 1000) })
	if err != nil || doc == nil || doc.Content[0].Content[0].Value != "a" {
		t.Fatalf("err %v, doc %v", err, doc)
	}
	if times := float64(spent) / float64(len(data)); times > 0.5 {
		t.Errorf("allocated %.2f times the file, want no copy of it", times)
	}
}

// Decode refuses a file yamlfast reads past the limit having built none
// of its nodes: before, yamlfast built the limit's nodes (about 400 MB
// for MaxTreeNodes) and then stopped.
func TestDecodePastTheLimitBuildsNoNode(t *testing.T) {
	t.Setenv(yamlfast.SwitchEnv, "")
	const limit = 100_000
	data := []byte("a: [" + strings.Repeat("1, ", 2*limit) + "1]\n")
	var over *Over
	var err error
	spent := allocs.During(func() { _, over, err = Decode(data, limit) })
	if err != nil || over == nil || over.Line != 1 || over.Col != 5+3*(limit-4) {
		t.Fatalf("err %v, over %+v; want over at 1:%d", err, over, 5+3*(limit-4))
	}
	if per := float64(spent) / limit; per > 4 {
		t.Errorf("allocated %.1f bytes a node of the limit, want no node built", per)
	}
}
