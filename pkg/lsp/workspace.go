package lsp

import (
	"cmp"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
	"kitsoki/pkg/validate"
)

// maxModels is how many story models (those checked last) the workspace
// keeps for navigation; a dropped one keeps its file list (storiesOf) and
// is checked again when navigated (storyFor).
const maxModels = 16

// maxModelBytes bounds the story YAML the kept models were loaded from,
// together, past the model checked last (always kept): a model takes many
// times its story's bytes, so a count of models alone lets big stories
// hold more than the open buffers may (TestHeldHeapBoundedByTheCaps).
const maxModelBytes = 4 << 20

// workspace remembers the stories checked so far: which files each one is
// made of (manifest, include files, imported children) and, for the
// maxModels checked last, its last model, so a change to any file
// re-checks every story it belongs to.
type workspace struct {
	mu      sync.Mutex
	stories map[string]*entry // by absolute manifest path
	tick    uint64            // counts checks: entry.used orders the models
	// published remembers which files had diagnostics, per story, so a
	// fixed file is cleared.
	published map[string][]string
}

type entry struct {
	manifest string
	st       *story.Story
	files    []string // absolute paths of every YAML file of the story tree
	used     uint64   // workspace.tick when st was last set
	size     int64    // bytes of the files st was loaded from (maxModelBytes)
}

func newWorkspace() *workspace {
	return &workspace{stories: map[string]*entry{}, published: map[string][]string{}}
}

// manifestFor finds the app.yaml a file belongs to: itself, or the nearest
// app.yaml in a parent directory (rooms/*.yaml, flows/*.yaml), looked at
// through root, the workspace root holding path, and never above it: an
// app.yaml that a symlink leads out of root from is no manifest, whether
// its target exists or not (nil root: none).
func manifestFor(root *safefile.Root, path string) string {
	if filepath.Base(path) == story.StoryFile {
		return path
	}
	if root == nil {
		return ""
	}
	looked := 0
	for dir := range story.Ancestors(filepath.Dir(path)) {
		if _, in := root.Rel(dir); !in {
			break
		}
		m := filepath.Join(dir, story.StoryFile)
		if fi, err := root.Stat(m); err == nil && fi.Mode().IsRegular() {
			return m
		}
		if looked++; looked == 4 {
			break
		}
	}
	return ""
}

// storiesOf lists the manifests to re-check when path changes: the story it
// belongs to (manifestFor through root) and every known story that reads
// it (an imported child's importers).
func (w *workspace) storiesOf(root *safefile.Root, path string) []string {
	m := manifestFor(root, path)
	w.mu.Lock()
	defer w.mu.Unlock()
	set := map[string]bool{}
	if m != "" {
		set[m] = true
	}
	for m, e := range w.stories {
		if slices.Contains(e.files, path) {
			set[m] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// known says the story at manifest was checked before.
func (w *workspace) known(manifest string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stories[manifest] != nil
}

// manifests lists the stories checked so far.
func (w *workspace) manifests() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Sorted(maps.Keys(w.stories))
}

// storyFiles lists the absolute paths of every YAML file a loaded story
// tree was read from (story.Story.Files: its includes and imported
// children too).
func storyFiles(st *story.Story) []string {
	var out []string
	for _, f := range st.Files() {
		if abs, err := filepath.Abs(f); err == nil {
			out = append(out, abs)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// check validates one story with the open buffers as overlay, exactly as
// kitsoki validate does, and keeps the model that check loaded for
// navigation (one load per check).
func (w *workspace) check(manifest, root string, overlay map[string][]byte) (*entry, []diag.Diagnostic) {
	opts := story.Options{Overlay: overlay, Root: root}
	res := validate.Run([]string{manifest}, validate.Options{Story: opts, Jobs: 1, KeepStories: true})
	st := res.Stories[manifest]
	e := &entry{manifest: manifest, st: st, files: []string{manifest}}
	if st != nil {
		e.files = storyFiles(st)
		e.size = filesSize(e.files, overlay)
	}
	w.mu.Lock()
	if prev := w.stories[manifest]; st == nil && prev != nil && prev.st != nil {
		// a buffer that does not parse yet: navigate with the last model
		e.st, e.files, e.size = prev.st, prev.files, prev.size
	}
	w.tick++
	e.used = w.tick
	w.stories[manifest] = e
	w.dropModels()
	w.mu.Unlock()
	return e, res.Diagnostics
}

// filesSize is the bytes of files as a check read them: the buffer when
// overlay holds one, else the file on disk.
func filesSize(files []string, overlay map[string][]byte) int64 {
	var n int64
	for _, f := range files {
		if b, ok := overlay[f]; ok {
			n += int64(len(b))
		} else if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// dropModels keeps the models set last, at most maxModels of them and
// maxModelBytes of their stories past the last one, and drops the others'
// (w.mu held).
func (w *workspace) dropModels() {
	var held []*entry
	for _, e := range w.stories {
		if e.st != nil {
			held = append(held, e)
		}
	}
	slices.SortFunc(held, func(a, b *entry) int { return cmp.Compare(b.used, a.used) })
	var size int64 // of the models kept past the first
	for i, e := range held {
		if i == 0 {
			continue
		}
		if size += e.size; i < maxModels && size <= maxModelBytes {
			continue
		}
		// a fresh entry, so a caller holding the old one keeps its model
		w.stories[e.manifest] = &entry{manifest: e.manifest, files: e.files, used: e.used}
	}
}

// story returns the last model of the story a file belongs to
// (manifestFor through root).
func (w *workspace) story(root *safefile.Root, path string) *story.Story {
	m := manifestFor(root, path)
	w.mu.Lock()
	defer w.mu.Unlock()
	if e := w.stories[m]; e != nil && e.st != nil {
		return e.st
	}
	for _, e := range w.stories {
		if e.st != nil && slices.Contains(e.files, path) {
			return e.st
		}
	}
	return nil
}
