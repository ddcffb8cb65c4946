package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// storymutTries is how many edit sets a story draws before it keeps one
// kitsoki does not load.
const storymutTries = 8

// storymutRefused is the chance, in percent, that a story keeps its
// first edit set whether it loads or not: a few stories test the loaders'
// agreement, most the runtime.
const storymutRefused = 6

// writeStorymut writes n stories, story i a copy of corpus story
// (seed+i) mod the number of them (as -kind mutate copies it) with its
// own flow fixtures, whose YAML is then edited in one to four places
// (storymut_edit.go): guards, set: values, targets, lifecycle lists,
// timeouts, emits, host args, views, initial:, parallel regions, import
// overrides, terminal:, world declarations, intent slots (storymut_slot.go).
// Most edit sets kitsoki still loads; origin.txt names the story and the
// edits. About one story in two also gets two mutate-style fixtures
// (mutate_fixture.go). With trail, each copy is marked for -trail after
// its edits (storymut_trail.go).
func writeStorymut(dir string, n int, seed uint64, from string, trail, known bool) error {
	from, stories, err := sourceStories("storymut", from)
	if err != nil {
		return err
	}
	return writeStorymutOf(dir, n, seed, from, stories, trail, known)
}

// writeStorymutOf is writeStorymut over the corpus stories of from, loaded
// (corpusStories); it only reads them.
func writeStorymutOf(dir string, n int, seed uint64, from string, stories []*corpusStory, trail, known bool) error {
	for i := range n {
		s := seed + uint64(i)
		cs := stories[s%uint64(len(stories))]
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		g := newGen(s)
		g.withKnown = known
		var edits []string
		loads := false
		for try := range storymutTries {
			if err := os.RemoveAll(d); err != nil {
				return err
			}
			if err := copyStory(cs, d); err != nil {
				return err
			}
			if err := copyFixtureFiles(cs.dir, d); err != nil {
				return err
			}
			var err error
			if edits, err = g.editStory(d); err != nil {
				return fmt.Errorf("story %s (seed %d): %w", cs.rel, s, err)
			}
			if trail {
				if err := markStoryTrail(d); err != nil {
					return err
				}
			}
			loads = storyLoads(d, from)
			if loads || try == 0 && g.chance(storymutRefused) {
				break
			}
		}
		verdict := "loads here"
		if !loads {
			verdict = "refused here"
		}
		files := []agentFile{{"origin.txt", fmt.Sprintf("%s (seed %d, %s)\n%s\n", cs.rel, s, verdict, strings.Join(edits, "\n"))}}
		if loads && g.chance(50) {
			for j := range 2 {
				files = append(files, agentFile{filepath.Join("flows", fmt.Sprintf("zz_m%d.yaml", j)), g.mutFixture(cs)})
			}
		}
		if err := writeFiles(d, files); err != nil {
			return err
		}
	}
	return nil
}

// storyLoads reports that kitsoki loads the story in d with no error,
// its load-time checks (pkg/lint) included, as `test flows` loads it.
func storyLoads(d, from string) bool {
	st, ds := lint.Load(d, story.Options{Trees: []string{from}})
	return st != nil && !slices.ContainsFunc(ds, func(x diag.Diagnostic) bool { return x.Severity == diag.Error })
}

// copyFixtureFiles copies the YAML files directly in src/flows (the
// story's own fixtures, which copyStory leaves out) to d/flows.
func copyFixtureFiles(src, d string) error {
	ents, err := os.ReadDir(filepath.Join(src, "flows"))
	if err != nil {
		return err
	}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, "flows", e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "flows", e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// yfile is one YAML file of a copied story, parsed into nodes.
type yfile struct {
	path  string
	root  *yaml.Node // the document's top mapping
	doc   *yaml.Node
	dirty bool
	orig  []byte // the file re-encoded before any edit
}

// storyFiles parses the YAML files of the story copied to d that hold
// states, world or imports (not its fixtures, cassettes or scripts).
func storyFiles(d string) ([]*yfile, error) {
	var out []*yfile
	err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if rel, _ := filepath.Rel(d, p); rel == "flows" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".yaml") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var doc yaml.Node
		if yaml.Unmarshal(b, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			return nil
		}
		root := doc.Content[0]
		if mapGet(root, "states") == nil && mapGet(root, "world") == nil && mapGet(root, "imports") == nil {
			return nil
		}
		orig, err := encodeDoc(&doc)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		out = append(out, &yfile{path: p, root: root, doc: &doc, orig: orig})
		return nil
	})
	return out, err
}

// encodeDoc writes a document's nodes back as YAML. yaml.v3 writes a
// character outside the BMP (an emoji) as a \UXXXXXXXX escape, which
// upstream's YAML reader drops (docs/compat/story.md, "YAML library
// corners"): such escapes are written back as the characters.
func encodeDoc(doc *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	err := enc.Encode(doc)
	return longEscape.ReplaceAllFunc(buf.Bytes(), func(m []byte) []byte {
		r, perr := strconv.ParseUint(string(m[2:]), 16, 32)
		if perr != nil || !utf8.ValidRune(rune(r)) {
			return m
		}
		return utf8.AppendRune(nil, rune(r))
	}), err
}

// longEscape is a YAML double-quoted \U escape.
var longEscape = regexp.MustCompile(`\\U[0-9A-Fa-f]{8}`)

// saveFiles writes back every file an edit changed; the others keep
// their bytes.
func saveFiles(fs []*yfile) error {
	for _, f := range fs {
		if !f.dirty {
			continue
		}
		b, err := encodeDoc(f.doc)
		if err != nil {
			return fmt.Errorf("%s: %w", f.path, err)
		}
		if bytes.Equal(b, f.orig) {
			continue
		}
		if err := os.WriteFile(f.path, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// mapGet is the value of key in the mapping node n, or nil.
func mapGet(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// mapSet sets key in the mapping node n to v, appending it when absent.
func mapSet(n *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content[i+1] = v
			return
		}
	}
	n.Content = append(n.Content, str(key), v)
}

// mapDel removes key from the mapping node n.
func mapDel(n *yaml.Node, key string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content = slices.Delete(n.Content, i, i+2)
			return
		}
	}
}

// mapKeys lists the keys of the mapping node n in order.
func mapKeys(n *yaml.Node) []string {
	var out []string
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, n.Content[i].Value)
	}
	return out
}

// str is a plain scalar node; node parses a YAML fragment into one.
func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// (a fragment that does not parse is kept as a string).
func node(src string) *yaml.Node {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil || len(n.Content) == 0 {
		return str(src)
	}
	return n.Content[0]
}
