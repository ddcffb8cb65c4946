package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// An import's entry that names no top-level state of the child is worded
// as the existing engine words it, at the wrapper state the fold makes,
// named by its folded path at every depth (probes hunt126 ent1-ent3:
// `state "kid.kid.kid": initial child "k9" does not exist`).
func TestImportEntryFoldedWording(t *testing.T) {
	for depth := 1; depth <= 3; depth++ {
		dir := t.TempDir()
		at := nestImports(t, dir, depth, ", entry: k9")
		write(t, at, "app.yaml", "app: {id: leaf}\nroot: home\nstates:\n  home: {terminal: true}\n")
		_, ds := Load(dir, story.Options{})
		want := `state "` + strings.TrimSuffix(strings.Repeat("kid.", depth), ".") + `": initial child "k9" does not exist (imports.kid: entry "k9"`
		var got []string
		for _, d := range ds {
			got = append(got, d.Message)
		}
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("depth %d: want %q in\n%s", depth, want, strings.Join(got, "\n"))
		}
	}
}

// nestImports writes depth stories under dir, each importing ./kid (the
// deepest import with extra added to its import line), and returns the
// directory where the innermost child's app.yaml belongs.
func nestImports(t *testing.T, dir string, depth int, extra string) string {
	at := dir
	for i := 1; i <= depth; i++ {
		more := ""
		if i == depth {
			more = extra
		}
		write(t, at, "app.yaml", "app: {id: w}\nimports:\n  kid: {source: ./kid"+more+"}\nintents: {enter: {}}\nroot: home\nstates:\n  home:\n    on:\n      enter: [{target: kid}]\n")
		at = filepath.Join(at, "kid")
	}
	return at
}
