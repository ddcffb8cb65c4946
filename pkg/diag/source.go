package diag

import (
	"path/filepath"

	"kitsoki/internal/safefile"
)

// RootSource is a source of file bytes for snippets ([HumanOptions.Source])
// and ignore markers that never reads a file by its path again: it gives
// kept's bytes for a file the load kept, else reads the file through the
// first of roots lexically holding it, so a file swapped for a link
// leading out after the load is refused, nothing outside read. A file no
// root holds has no bytes. kept may be nil. Each read closes its root
// after it, so many roots hold no descriptors.
func RootSource(kept func(string) ([]byte, bool), roots ...*safefile.Root) func(string) ([]byte, bool) {
	return func(file string) ([]byte, bool) {
		if kept != nil {
			if b, ok := kept(file); ok {
				return b, true
			}
		}
		abs, err := filepath.Abs(file)
		if err != nil {
			return nil, false
		}
		for _, r := range roots {
			if r == nil {
				continue
			}
			if _, in := r.Rel(abs); !in {
				continue
			}
			b, err := r.ReadFile(abs, safefile.StoryYAML)
			r.Close()
			return b, err == nil
		}
		return nil, false
	}
}
