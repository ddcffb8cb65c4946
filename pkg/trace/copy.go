package trace

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/lazyre"
)

// sidecarRef is a JSON string naming a file of the trace's agent-prompts/.
var sidecarRef = &lazyre.Regexp{Expr: `"(agent-prompts/[A-Za-z0-9._-]+)"`}

// CopySidecars copies the agent-prompts/ files that the trace data (read
// from src) refers to, from beside src to beside dst, as upstream's
// --trace-out does. Each is read as ReadSidecar reads it; a missing one is
// an error naming it. Inside root (the project root; "" for none) the
// folder is made and the files written through it, so a link swapped in
// on the way cannot lead them out. The transcripts/ files the trace's
// transcript_ref members name are copied the same way (copyTranscripts).
func CopySidecars(src, dst, root string, data []byte, limit int64) error {
	if err := copyTranscripts(src, dst, root, data, limit); err != nil {
		return err
	}
	refs := namedIn(sidecarRef, data)
	if len(refs) == 0 {
		return nil
	}
	dir := filepath.Join(filepath.Dir(dst), promptsDir)
	if err := atomicfile.MkdirBelow(root, dir); err != nil {
		return fmt.Errorf("copy trace sidecars: %w", err)
	}
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("copy trace sidecars: %s beside %s is not a folder (a symbolic link?); the prompts are written only into a real one: remove it", promptsDir, dst)
	}
	for _, ref := range refs {
		b, err := ReadSidecar(src, ref, limit)
		if err != nil {
			return fmt.Errorf("copy trace sidecars of %s: %w", src, err)
		}
		name, _ := sidecarName(ref) // ReadSidecar checked it
		if err := atomicfile.WriteBelow(root, filepath.Join(dir, name), b, 0o600); err != nil {
			return fmt.Errorf("copy trace sidecars: %w", err)
		}
	}
	return nil
}

// namedIn is the distinct names re's first group finds in data, sorted.
func namedIn(re *lazyre.Regexp, data []byte) []string {
	var names []string
	for _, m := range re.Get().FindAllSubmatch(data, -1) {
		names = append(names, string(m[1]))
	}
	slices.Sort(names)
	return slices.Compact(names)
}
