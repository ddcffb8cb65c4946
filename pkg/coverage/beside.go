package coverage

import (
	"os"
	"path/filepath"

	"kitsoki/pkg/story"
)

// EditorProfile is the coverage profile kitsoki lsp reads: a JSON profile
// at .kitsoki/coverage.json in a story's directory or any directory above
// it (the nearest wins). Its relative paths are relative to the directory
// that holds .kitsoki/, so write it from there:
//
//	kitsoki test ./... --coverprofile .kitsoki/coverage.json
//
// kitsoki test writes no profile unless asked: --coverprofile has no
// default.
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
