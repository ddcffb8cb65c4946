package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// BenchmarkRecheckAfterEdit is the work one keystroke costs once the
// debounce fires: validate the story with the edited buffer as overlay and
// load its model for navigation (goal: under 20 ms for a corpus story).
func BenchmarkRecheckAfterEdit(b *testing.B) {
	for _, name := range []string{"fix-tests", "pr-refinement", "conflict-resolve"} {
		src := storytest.Corpus(b, name)
		b.Run(name, func(b *testing.B) {
			manifest := filepath.Join(src, "app.yaml")
			text, err := os.ReadFile(manifest)
			if err != nil {
				b.Fatal(err)
			}
			edited := strings.Replace(string(text), "\nstates:", "\n# edited\nstates:", 1)
			ws := newWorkspace()
			overlay := map[string][]byte{manifest: []byte(edited)}
			b.ReportAllocs()
			for b.Loop() {
				ws.check(manifest, filepath.Dir(manifest), overlay)
			}
		})
	}
}
