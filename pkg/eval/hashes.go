package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// emptyHash is sha256 of no bytes: the toolbox hash of an agent with no
// tools.
const emptyHash = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// Hashes are the four inputs a report's freshness depends on (reference
// C.5). An empty string means the hash could not be computed.
type Hashes struct {
	Dataset string `json:"dataset_hash,omitempty"`
	Prompt  string `json:"prompt_hash,omitempty"`
	Schema  string `json:"schema_hash,omitempty"`
	Toolbox string `json:"toolbox_hash,omitempty"`
}

// hashBytes is "sha256:" + lowercase hex of b.
func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// computeHashes computes the hashes of a dataset against its call site.
// st and cs may be nil (only the dataset hash is then known).
func computeHashes(d *Dataset, st *story.Story, cs *CallSite) Hashes {
	h := Hashes{Dataset: hashBytes(d.Raw)}
	if st == nil || cs == nil {
		return h
	}
	h.Prompt = hashFile(st.FileRoot(), st.Dir, cs.PromptPath)
	h.Schema = hashFile(st.FileRoot(), st.Dir, cs.SchemaPath)
	h.Toolbox = toolboxHash(st, cs.Agent)
	return h
}

// hashFile hashes <dir>/<p> read through the project root; "" when p is
// empty, inline text, unreadable or outside the root.
func hashFile(root *safefile.Root, dir, p string) string {
	if p == "" || strings.ContainsAny(p, "\n{") {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	b, err := root.ReadFile(filepath.Clean(p), safefile.Data) // refuses what is not a regular file, or outside
	if err != nil {
		return ""
	}
	return hashBytes(b)
}

// toolboxHash is sha256 of the persona's declared tools, sorted and joined
// with NUL. No persona or no tools gives emptyHash.
func toolboxHash(st *story.Story, persona string) string {
	pr := st.Agents[persona]
	if pr == nil {
		return emptyHash
	}
	return hashBytes([]byte(strings.Join(slices.Sorted(slices.Values(pr.Tools)), "\x00")))
}
