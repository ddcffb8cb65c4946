package trace

import (
	"fmt"
	"os"
	"path/filepath"
)

// sidecarThreshold is the size above which a prompt or a response leaves the
// event for a file under agent-prompts/ beside the trace (the ">1KB rule").
const sidecarThreshold = 1024

// promptsDir is the sidecar folder name, relative to the trace's directory.
const promptsDir = "agent-prompts"

// writeSidecar writes data to <trace dir>/agent-prompts/<callID><suffix>,
// fsynced, and returns the path relative to the trace directory (always with
// forward slashes).
func (w *Writer) writeSidecar(callID, suffix string, data []byte) (string, error) {
	if err := checkCallIDFileName(callID); err != nil {
		return "", fmt.Errorf("trace: sidecar for %q: %w", w.path, err)
	}
	dir := filepath.Join(w.dir, promptsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("trace: sidecar dir: %w", err)
	}
	name := callID + suffix
	p := filepath.Join(dir, name)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return "", fmt.Errorf("trace: sidecar: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return "", fmt.Errorf("trace: sidecar %q: write: %w", p, err)
	}
	if w.opt.Sync != SyncNever {
		if err := f.Sync(); err != nil {
			f.Close()
			return "", fmt.Errorf("trace: sidecar %q: fsync: %w", p, err)
		}
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("trace: sidecar %q: %w", p, err)
	}
	return promptsDir + "/" + name, nil
}

// checkCallIDFileName accepts call ids that are safe as a file name: 1-128
// chars of [A-Za-z0-9._-], not "." or "..".
func checkCallIDFileName(id string) error {
	if id == "" {
		return fmt.Errorf("empty call_id; a sidecar file is named after the call id")
	}
	if id == "." || id == ".." || len(id) > 128 {
		return fmt.Errorf("call_id %q cannot name a sidecar file", id)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("call_id %q holds %q, which cannot be part of a sidecar file name (use [A-Za-z0-9._-])", id, c)
		}
	}
	return nil
}

// resolveSidecar returns the file path of a prompt_file / response_file
// reference found in a trace at tracePath, refusing references that leave
// the trace's agent-prompts/ folder.
func resolveSidecar(tracePath, ref string) (string, error) {
	clean := filepath.ToSlash(filepath.Clean(filepath.FromSlash(ref)))
	if filepath.IsAbs(ref) || len(clean) <= len(promptsDir)+1 || clean[:len(promptsDir)+1] != promptsDir+"/" {
		return "", fmt.Errorf("sidecar reference %q is not under %s/", ref, promptsDir)
	}
	return filepath.Join(filepath.Dir(tracePath), filepath.FromSlash(clean)), nil
}
