package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// mutateFixtures is how many fixtures each mutated story gets.
const mutateFixtures = 8

// corpusStory is one real story gen -kind mutate copies: its directory,
// its loaded model and its real flow fixtures.
type corpusStory struct {
	dir      string
	rel      string // the directory under the corpus, slash-separated
	model    *story.Story
	fixtures []m
}

// writeMutate writes n stories, story i a copy of corpus story
// (seed+i) mod the number of them, with new flow fixtures drawn from the
// story's real fixtures and its model (mutate_fixture.go). from is the
// corpus directory ("" for shared/corpus beside the repository).
// With trail, the copy is marked for -trail (storymut_trail.go).
func writeMutate(dir string, n int, seed uint64, from string, trail bool) error {
	_, stories, err := sourceStories("mutate", from)
	if err != nil {
		return err
	}
	return writeMutateOf(dir, n, seed, stories, trail)
}

// writeMutateOf is writeMutate over the corpus stories, loaded
// (corpusStories); it only reads them.
func writeMutateOf(dir string, n int, seed uint64, stories []*corpusStory, trail bool) error {
	for i := range n {
		s := seed + uint64(i)
		cs := stories[s%uint64(len(stories))]
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		if err := copyStory(cs, d); err != nil {
			return err
		}
		if trail {
			if err := markStoryTrail(d); err != nil {
				return err
			}
		}
		g := newGen(s)
		files := []agentFile{{"origin.txt", fmt.Sprintf("%s (seed %d)\n", cs.rel, s)}}
		for j := range mutateFixtures {
			files = append(files, agentFile{filepath.Join("flows", fmt.Sprintf("m%d.yaml", j)), g.mutFixture(cs)})
		}
		if err := writeFiles(d, files); err != nil {
			return err
		}
	}
	return nil
}

// corpusStories finds every story under from with an app.yaml that loads
// without error and at least one flow fixture, sorted by directory.
func corpusStories(from string) ([]*corpusStory, error) {
	var out []*corpusStory
	err := filepath.WalkDir(from, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() || e.Name() != "flows" {
			return nil
		}
		sd := filepath.Dir(p)
		if _, serr := os.Stat(filepath.Join(sd, "app.yaml")); serr != nil {
			return filepath.SkipDir
		}
		fx, ferr := readFixtures(p)
		if ferr != nil {
			return ferr
		}
		if len(fx) == 0 {
			return filepath.SkipDir
		}
		st, ds := story.Load(sd, story.Options{Trees: []string{from}})
		if st == nil || slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Severity == diag.Error }) {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(from, sd)
		out = append(out, &corpusStory{dir: sd, rel: filepath.ToSlash(rel), model: st, fixtures: fx})
		return filepath.SkipDir
	})
	slices.SortFunc(out, func(a, b *corpusStory) int { return strings.Compare(a.rel, b.rel) })
	return out, err
}

// readFixtures reads the flow documents (mappings with turns:) of the
// YAML files directly in dir.
func readFixtures(dir string) ([]m, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []m
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, flowDocs(b)...)
	}
	return out, nil
}

// flowDocs returns the flow documents (mappings with turns:) of one YAML
// file's text: none for a cassette or other sidecar kept beside fixtures.
func flowDocs(b []byte) []m {
	var out []m
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var doc m
		if err := dec.Decode(&doc); err != nil {
			return out
		}
		if _, ok := doc["turns"].([]any); ok {
			out = append(out, doc)
		}
	}
}

// siblingSource is an import source naming a sibling story of the corpus.
var siblingSource = regexp.MustCompile(`(?m)^(\s*source:\s*)\.\./([A-Za-z0-9_.-]+)\s*$`)

// copyStory copies cs's directory to d (flows/ without its fixtures, so
// cassettes the fixtures name, in flows/ or below it, stay where they were). A sibling story an
// import names as ../X is copied to d/X and the source rewritten to ./X,
// so that the copy holds everything it loads.
func copyStory(cs *corpusStory, d string) error {
	if err := copyTree(cs.dir, d, true); err != nil {
		return err
	}
	app := filepath.Join(d, "app.yaml")
	b, err := os.ReadFile(app)
	if err != nil {
		return err
	}
	for _, sm := range siblingSource.FindAllSubmatch(b, -1) {
		sib := filepath.Join(filepath.Dir(cs.dir), string(sm[2]))
		if err := copyTree(sib, filepath.Join(d, string(sm[2])), false); err != nil {
			return fmt.Errorf("story %s: import ../%s: %w", cs.rel, sm[2], err)
		}
	}
	b = siblingSource.ReplaceAll(b, []byte("${1}./${2}"))
	return os.WriteFile(app, b, 0o644)
}

// copyTree copies the directory src to dst; skipFixtures leaves out the
// YAML files directly in src/flows that hold a flow fixture (a cassette
// there is copied).
func copyTree(src, dst string, skipFixtures bool) error {
	return filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if e.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		if !e.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if skipFixtures && filepath.Dir(rel) == "flows" && strings.HasSuffix(rel, ".yaml") && len(flowDocs(b)) > 0 {
			return nil
		}
		return os.WriteFile(out, b, 0o644)
	})
}

// sourceStories resolves -from (shared/corpus beside the repository when
// empty) and lists its stories that load and have flow fixtures.
func sourceStories(kind, from string) (string, []*corpusStory, error) {
	if from == "" {
		if from = storytest.SharedDir("corpus"); from == "" {
			return "", nil, fmt.Errorf("-kind %s: the corpus (shared/corpus beside the repository) is not here; name it with -from DIR", kind)
		}
	}
	stories, err := corpusStories(from)
	if err != nil {
		return "", nil, err
	}
	if len(stories) == 0 {
		return "", nil, fmt.Errorf("-from %s: no story there has an app.yaml that loads and flow fixtures in flows/", from)
	}
	return from, stories, nil
}
