package flowtest_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/conformance"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/flowtest"
)

// The corpus-reach fixtures (testdata/corpusreach/<story>/reach.yaml) reach
// what the corpus's own 50 fixtures never do: rare arms, error paths,
// refused intents, exits of imported children, views in every state. Each
// runs beside its corpus story, on a copy of the shared corpus (imports
// such as frontier_event's ../robbery resolve there), and is held to the
// existing engine's report of the same fixtures (upstream.json beside it).
func TestCorpusReach(t *testing.T) {
	corpus := storytest.Shared(t, "corpus")
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(corpus)); err != nil {
		t.Fatal(err)
	}
	n := 0
	err := filepath.WalkDir(filepath.Join("testdata", "corpusreach"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "upstream.json" {
			return err
		}
		src := filepath.Dir(p)
		story, err := filepath.Rel(filepath.Join("testdata", "corpusreach"), src)
		if err != nil {
			return err
		}
		dir := filepath.Join(root, story)
		if err := os.MkdirAll(filepath.Join(dir, "flows"), 0o755); err != nil {
			return err
		}
		for _, f := range [][2]string{{"reach.yaml", filepath.Join("flows", "reach.yaml")}, {"upstream.json", "upstream.json"}} {
			data, err := os.ReadFile(filepath.Join(src, f[0]))
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, f[1]), data, 0o644); err != nil {
				return err
			}
		}
		n++
		t.Run(filepath.ToSlash(story), func(t *testing.T) {
			conformance.Check(t, dir, filepath.Join("flows", "reach.yaml"), flowtest.Options{Trees: []string{root}})
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no corpus-reach fixtures under testdata/corpusreach")
	}
}
