package lint

import (
	"io/fs"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/story"
)

// benchCheck runs Check over stories loaded once, b.N times.
func benchCheck(b *testing.B, sts []*story.Story, opts story.Options) {
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, st := range sts {
			if _, ok := Check(st, opts); !ok {
				b.Fatalf("%s: a rule panicked", st.File)
			}
		}
	}
}

// BenchmarkCheckPhased checks a story whose eight phases expand from one
// template running a shell-mode host.run (testdata/bench/phased): the
// expansion serves the phases-expanded pass, the world writes and the
// shell-injection taint.
func BenchmarkCheckPhased(b *testing.B) {
	st, _ := story.Load(filepath.Join("testdata", "bench", "phased"), story.Options{})
	if st == nil {
		b.Fatal("nil story")
	}
	benchCheck(b, []*story.Story{st}, story.Options{})
}

// BenchmarkCheckCorpus checks every story of the shared corpus (each
// app.yaml below it, as validate corpus/... takes them), loaded once.
func BenchmarkCheckCorpus(b *testing.B) {
	root := storytest.Shared(b, "corpus")
	opts := story.Options{Trees: []string{root}}
	var sts []*story.Story
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == story.StoryFile {
			if st, _ := story.Load(p, opts); st != nil {
				sts = append(sts, st)
			}
		}
		return err
	})
	if err != nil || len(sts) < 20 {
		b.Fatalf("%d corpus stories loaded: %v", len(sts), err)
	}
	benchCheck(b, sts, opts)
}

// TestPhasesExpandedOncePerLoad: the phases-expanded pass, the world
// writes (rule world-key) and the shell-injection taint of one load read
// the one expansion the load's sources hold.
func TestPhasesExpandedOncePerLoad(t *testing.T) {
	st, _ := story.Load(filepath.Join("testdata", "bench", "phased"), story.Options{})
	if st == nil {
		t.Fatal("nil story")
	}
	src := &sources{read: st.Source}
	check(st, &yamlnode.Reporter{}, story.Options{}, src)
	if src.taint == nil {
		t.Fatal("the shell-injection taint was not worked out")
	}
	x := src.expansions[st]
	if len(src.expansions) != 1 || x == nil || x.err != nil {
		t.Fatalf("expansions: %d, of the story: %+v", len(src.expansions), x)
	}
	treeWorld(src, st)
	if src.expansions[st] != x || src.expanded(st) != x || src.expandedStory(st) != x.st {
		t.Error("a later ask expanded the story again")
	}
}
