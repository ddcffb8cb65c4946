package trace

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/lazyre"
)

// sidecarRef is a reference to a file of the trace's agent-prompts/
// folder as the writer writes it (prompt_file, response_file, a blob): a
// JSON string naming promptsDir, spelled out for lazyre's test.
var sidecarRef = &lazyre.Regexp{Expr: `"(agent-prompts/[A-Za-z0-9._-]+)"`}

// CopySidecars copies every agent-prompts/ file that the trace data
// (the bytes of the trace at src) refers to, from beside src to beside dst,
// so that a trace copied to dst keeps its prompts, responses and blobs, as
// upstream's --trace-out does by writing them there. Each file is read as
// ReadSidecar reads it (inside src's own folder, through no symlink, at
// most limit bytes) and written whole; dst's agent-prompts/ must be a real
// folder. A reference whose file is missing is an error naming it.
func CopySidecars(src, dst string, data []byte, limit int64) error {
	var refs []string
	for _, m := range sidecarRef.Get().FindAllSubmatch(data, -1) {
		refs = append(refs, string(m[1]))
	}
	slices.Sort(refs)
	refs = slices.Compact(refs)
	if len(refs) == 0 {
		return nil
	}
	dir := filepath.Join(filepath.Dir(dst), promptsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
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
		if err := atomicfile.Write(filepath.Join(dir, name), b, 0o600); err != nil {
			return fmt.Errorf("copy trace sidecars: %w", err)
		}
	}
	return nil
}
