package mcpserve

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// fingerprint hashes the contents (or absence) of files. A file inside
// the project root (lexically) is read through it, as the loader reads
// it: one that is, or has become, a symbolic link leading out of the
// project, or into a .git directory, counts as absent, and nothing
// outside is opened. A file outside
// the root is one the loader or the plugin assembly read from elsewhere
// (an @kitsoki/ child, the user's or --profile's profile and plugins),
// read as they read it.
func fingerprint(root string, files []string) string {
	r := safefile.NewRoot(root)
	defer r.Close()
	h := sha256.New()
	for _, f := range files {
		h.Write([]byte(f))
		h.Write([]byte{0})
		var b []byte
		var err error
		if abs, aerr := filepath.Abs(f); aerr != nil {
			err = aerr
		} else if _, in := r.Rel(abs); in && r.InGitDir(abs) {
			err = safefile.ErrInGitDir // refused unread, as the loader refuses it
		} else if in {
			b, err = r.ReadFile(abs, safefile.StoryYAML)
		} else {
			b, err = safefile.ReadFile(abs, safefile.StoryYAML)
		}
		if err != nil {
			h.Write([]byte("\x00missing\x00"))
			continue
		}
		h.Write(b)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// projectRoot is the project root the story st was read through, or,
// when it did not load, the one its manifest is read through (--root, or
// the nearest .git or .kitsoki/ above it).
func (s *Server) projectRoot(st *story.Story) string {
	if st != nil && st.ProjectRoot != "" {
		return st.ProjectRoot
	}
	if s.opts.Root != "" {
		return s.opts.Root
	}
	abs, _ := filepath.Abs(story.ManifestPath(s.opts.StoryPath))
	dir, _ := story.ProjectRoot(filepath.Dir(abs))
	return dir
}
