package trace

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A new trace holds the world, command output and agent answers: only its
// owner may read it, whatever the umask lets through; a trace truncated
// for a new run keeps the mode its owner gave it.
func TestCreateOwnerOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX modes")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "sessions", "a.jsonl")
	w, err := CreateWith(p, Header{AppID: "a"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if m := st.Mode().Perm(); m != 0o600 {
		t.Errorf("new trace mode %v, want 0600", m)
	}
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	w, err = CreateWith(p, Header{AppID: "a"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 {
		t.Errorf("truncated trace mode %v, want its own 0640", st.Mode().Perm())
	}
}
