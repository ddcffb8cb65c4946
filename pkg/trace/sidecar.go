package trace

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// sidecarThreshold is the size above which a prompt or a response leaves the
// event for a file under agent-prompts/ beside the trace (the ">1KB rule").
const sidecarThreshold = 1024

// promptsDir is the sidecar folder name, relative to the trace's directory.
const promptsDir = "agent-prompts"

// writeSidecar writes data to agent-prompts/<callID><suffix> and returns
// that reference.
func (w *Writer) writeSidecar(callID, suffix string, data []byte) (string, error) {
	if err := checkCallIDFileName(callID); err != nil {
		return "", fmt.Errorf("trace: sidecar for %q: %w", w.path, err)
	}
	name := callID + suffix
	if err := w.writeSideFile(promptsDir, name, data); err != nil {
		return "", fmt.Errorf("trace: sidecar %q: %w", filepath.Join(w.dir, promptsDir, name), err)
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

// resolveSidecar is the file path of a sidecar reference of the trace at
// tracePath, refusing one that leaves agent-prompts/.
func resolveSidecar(tracePath, ref string) (string, error) {
	name, err := sidecarName(ref)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(tracePath), promptsDir, filepath.FromSlash(name)), nil
}

// writeSideFile writes data to name in the folder sub beside the trace
// (agent-prompts/, transcripts/) through a temporary file and a rename, so
// a crash leaves no short file.
func (w *Writer) writeSideFile(sub, name string, data []byte) error {
	return w.writeSide(sub, name, bytes.NewReader(data))
}

// sized is what a file beside the trace is written from: its size counts
// against the trace's bound before it is written.
type sized interface {
	io.WriterTo
	Size() int64
}

// writeSide is writeSideFile of what data writes (a strings.Reader writes
// its string without a copy of it).
func (w *Writer) writeSide(sub, name string, data sized) error {
	if err := w.reserve("the file "+sub+"/"+name, data.Size()); err != nil {
		return err
	}
	dir := filepath.Join(w.dir, sub)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() {
		// a symbolic link planted in its place would take the files
		// wherever it leads
		return fmt.Errorf("%s beside the trace is not a folder (a symbolic link?); the files are written only into a real one: remove it", sub)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = data.WriteTo(tmp)
	if err == nil && w.opt.Sync != SyncNever {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
