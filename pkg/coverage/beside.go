package coverage

import (
	"os"
	"path/filepath"

	"kitsoki/pkg/story"
)

// EditorProfile is the JSON profile kitsoki lsp reads, in a story's
// directory or the nearest above it; its paths are relative to the
// directory that holds .kitsoki/ (kitsoki test ./... --coverprofile
// .kitsoki/coverage.json).
const EditorProfile = ".kitsoki/coverage.json"

// FindEditorProfile looks for EditorProfile from dir upward; root is the
// directory that holds it (the profile's paths are relative to root).
func FindEditorProfile(dir string) (profile, root string, ok bool) {
	root, ok = story.Above(dir, func(d string) bool {
		st, err := os.Stat(filepath.Join(d, filepath.FromSlash(EditorProfile)))
		return err == nil && st.Mode().IsRegular()
	})
	if !ok {
		return "", "", false
	}
	return filepath.Join(root, filepath.FromSlash(EditorProfile)), root, true
}

// UnreachedByFile maps the absolute path of each file of p (its relative
// paths taken from root) to the items no fixture reached.
func (p *Profile) UnreachedByFile(root string) map[string][]Item {
	out := map[string][]Item{}
	for _, u := range p.Unreached() {
		path := filepath.Clean(fromBase(root, u.Path))
		out[path] = append(out[path], u.Item)
	}
	return out
}
