package story

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestTreeStorySwappedOutReadsNothing: a story a DIR/... walk found was
// loaded by its path, its project root found above it by path: its
// directory swapped for a link leading out after the walk (to a checkout
// holding .git and an app.yaml) made the outside directory the project
// root, opened where the link led, and the outside story was loaded. The
// markers below the tree are looked at, and the root opened, through a
// root of the tree: the swap is the same refusal whatever the link leads
// to.
func TestTreeStorySwappedOutReadsNothing(t *testing.T) {
	base := t.TempDir()
	outDir, outFile := filepath.Join(base, "outside"), filepath.Join(base, "outside.txt")
	storytest.WriteFile(t, filepath.Join(outDir, ".git", "HEAD"), "")
	storytest.WriteFile(t, filepath.Join(outDir, StoryFile), "app: {id: CANARY}\nroot: a\nstates: {a: {terminal: true, bogus_key: 1}}\n")
	storytest.WriteFile(t, outFile, "x")
	tree := filepath.Join(base, "tree")
	var want string
	for i, target := range []string{"", outDir, outFile, filepath.Join(base, "absent")} {
		if err := os.RemoveAll(tree); err != nil {
			t.Fatal(err)
		}
		a := filepath.Join(tree, "a")
		storytest.WriteFile(t, filepath.Join(a, StoryFile), "app: {id: inside}\nroot: a\nstates: {a: {terminal: true}}\n")
		if target != "" {
			if err := os.RemoveAll(a); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, a); err != nil {
				t.Fatal(err)
			}
		}
		st, ds := Load(filepath.Join(a, StoryFile), Options{Trees: []string{tree}})
		var b strings.Builder
		for _, d := range ds {
			b.WriteString(d.Message + "\n")
		}
		got := b.String()
		if i == 0 {
			if st == nil || st.App.ID != "inside" {
				t.Fatalf("the story in place did not load: %s", got)
			}
			continue
		}
		if st != nil || strings.Contains(got, "CANARY") || !strings.Contains(got, "symlink leading out") {
			t.Fatalf("a swapped for a link to %s: loaded %v, findings:\n%s", target, st != nil, got)
		}
		if want == "" {
			want = got
		} else if got != want {
			t.Errorf("a swapped for a link to %s: findings\n%s\nwant, as for the directory:\n%s", target, got, want)
		}
	}
}
