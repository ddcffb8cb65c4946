package storyload

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeT records Fatalf and ends its goroutine, as testing.T does, so
// Load's refusal can be checked.
type fakeT struct {
	testing.TB
	failed string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// loadCatching runs LoadNoEnv(dir) and returns its failure message ("" when
// it returned a story).
func loadCatching(t *testing.T, dir string) string {
	f := &fakeT{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		LoadNoEnv(f, dir)
	}()
	<-done
	return f.failed
}

func writeApp(t *testing.T, yaml string) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadReturnsAGoodStory(t *testing.T) {
	dir := writeApp(t, "app: {id: ok}\nroot: start\nstates:\n  start: {terminal: true}\n")
	if st := LoadNoEnv(t, dir); st == nil || st.Root != "start" {
		t.Fatalf("story %#v", st)
	}
}

func TestLoadFailsOnALoaderError(t *testing.T) {
	dir := writeApp(t, "app: {id: bad}\nroot: nowhere\nstates:\n  start: {terminal: true}\n")
	got := loadCatching(t, dir)
	if got == "" || !strings.Contains(got, dir) || !strings.Contains(got, "nowhere") {
		t.Fatalf("a story whose root names no state: failure %q", got)
	}
}

func TestLoadFailsWithNoStory(t *testing.T) {
	got := loadCatching(t, filepath.Join(t.TempDir(), "missing"))
	if got == "" {
		t.Fatal("a missing folder loaded")
	}
}
