package coverage

import (
	"os"
	"path/filepath"
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
	for d := dir; ; {
		p := filepath.Join(d, filepath.FromSlash(EditorProfile))
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, d, true
		}
		up := filepath.Dir(d)
		if up == d {
			return "", "", false
		}
		d = up
	}
}

// UnreachedByFile maps the absolute path of each file of p (its relative
// paths taken from root) to the items no fixture reached.
func (p *Profile) UnreachedByFile(root string) map[string][]Item {
	out := map[string][]Item{}
	for _, f := range p.Files {
		path := filepath.Clean(fromBase(root, f.Path))
		for _, it := range f.Items {
			if it.Count == 0 {
				out[path] = append(out[path], it)
			}
		}
	}
	return out
}
