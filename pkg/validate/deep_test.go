package validate

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const deepManifest = "app: {id: deep}\nroot: a\nstates: {a: {terminal: true}}\n"

// TestExpandSkipsDeepTrees: a DIR/... walk does not follow a tree past
// maxWalkDepth levels, nor a path too long to open: it finds the stories
// above, and warns once, naming the first directory skipped (shortened)
// and the limit.
func TestExpandSkipsDeepTrees(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, StoryFile), []byte(deepManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	// 100 levels: past the depth limit, a story at the bottom
	deep := filepath.Join(dir, filepath.Join(slices.Repeat([]string{"dd"}, 100)...))
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(deep, StoryFile), []byte(deepManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	// a path longer than the system opens, well inside the depth limit
	if runtime.GOOS == "linux" {
		r, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.Repeat("n", 250)
		for range 20 { // 20 x 251 bytes: over Linux's PATH_MAX of 4096
			if err := r.Mkdir(name, 0o755); err != nil {
				t.Fatal(err)
			}
			next, err := r.OpenRoot(name)
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			r = next
		}
		if err := r.WriteFile(StoryFile, []byte(deepManifest), 0o644); err != nil {
			t.Fatal(err)
		}
		r.Close()
	}
	var warns []string
	got, err := Expand([]string{dir + "/..."}, func(s string) { warns = append(warns, s) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, StoryFile)}; !slices.Equal(got, want) {
		t.Fatalf("found %v, want %v", got, want)
	}
	if len(warns) != 1 {
		t.Fatalf("warnings %q, want one", warns)
	}
	w := warns[0]
	t.Log(w)
	if !strings.Contains(w, "…") || !strings.Contains(w, "more than 64 directories below") || len(w) > 600 {
		t.Fatalf("warning %q: want the skipped directory shortened and the limit", w)
	}
	if runtime.GOOS == "linux" && !strings.Contains(w, " and 1 more") {
		t.Fatalf("warning %q: want the long path counted", w)
	}
}
