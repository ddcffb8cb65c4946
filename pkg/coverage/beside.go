package coverage

import (
	"os"
	"path/filepath"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// EditorProfile is the JSON profile kitsoki lsp reads, in a story's
// directory or the nearest above it; its paths are relative to the
// directory that holds .kitsoki/ (kitsoki test ./... --coverprofile
// .kitsoki/coverage.json).
const EditorProfile = ".kitsoki/coverage.json"

// FindEditorProfile looks for EditorProfile from dir upward; root is the
// directory that holds it (the profile's paths are relative to root).
// A profile (or .kitsoki/) that is a symlink leading out of that directory
// is found whatever it points at, present, absent or not a file: the
// reader refuses it unread, so whether an outside path exists never
// decides which profile is taken.
func FindEditorProfile(dir string) (profile, root string, ok bool) {
	root, ok = story.Above(dir, func(d string) bool {
		p := filepath.Join(d, filepath.FromSlash(EditorProfile))
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return true
		}
		// only when .kitsoki/ or the profile is there as a name is d
		// opened to tell whether a symlink on the way leads out of it
		if _, err := os.Lstat(filepath.Dir(p)); err != nil {
			return false
		}
		r := safefile.NewRoot(d)
		defer r.Close()
		return r.LeadsOut(p)
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
