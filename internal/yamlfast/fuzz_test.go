package yamlfast

import (
	"os"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/testing/storytest"
)

// FuzzParseMatchesYAMLv3 checks the contract on any input: ParseWithin never
// panics, and whenever it accepts, its tree is yaml.v3's (comments
// aside). Seeds: the tricky table and the corpus stories.
func FuzzParseMatchesYAMLv3(f *testing.F) {
	for _, tc := range trickyCases {
		f.Add([]byte(tc.in))
	}
	// The corpus stories (the repository holds copies of them; without
	// the shared corpus, its examples).
	for _, root := range []string{storytest.CorpusDir(), "../../examples"} {
		if root == "" {
			continue
		}
		for _, path := range yamlFiles(f, root) {
			if data, err := os.ReadFile(path); err == nil && len(data) < 64<<10 {
				f.Add(data)
			}
		}
		break
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if _, _, problem := check(in); problem != "" {
			t.Fatalf("%s\ninput: %q", problem, in)
		}
		// ParseWithin's own entry point agrees with the internal one.
		if _, ok := parseDoc(in); ok != (len(in) > 0 && func() bool { _, why, _ := parse(string(in), false, 0); return why == "" }()) {
			t.Fatalf("ParseWithin and parse disagree on %q", in)
		}
		// ParseWithin refuses no document of n nodes within n (it may decline
		// a later document of more, which it checks and drops) and stops
		// within n-1 at its node past them
		if doc, ok := parseDoc(in); ok {
			n := treeNodes(doc)
			if _, _, over := parseLimit(in, n); over != nil {
				t.Fatalf("%q: %d nodes, refused within %d (over %v)", in, n, n, over)
			}
			if _, ok, over := parseLimit(in, n-1); n > 1 && (ok || over == nil) {
				t.Fatalf("%q: %d nodes, not refused within %d", in, n, n-1)
			}
		}
	})
}

// treeNodes counts the nodes of n's tree.
func treeNodes(n *yaml.Node) int {
	c := 1
	for _, k := range n.Content {
		c += treeNodes(k)
	}
	return c
}
