//go:build unix

package atomicfile

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// startHalfWriter starts the test binary as a writer of target that stops
// halfway (killHelperEnv) and returns it once it is there, holding its
// temporary file.
func startHalfWriter(t *testing.T, target string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), killHelperEnv+"="+target)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "halfway\n" {
		t.Fatalf("the writer never got halfway: %q %v", line, err)
	}
	return cmd
}

func temps(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			names = append(names, e.Name())
		}
	}
	return names
}

// The temporary file a writer killed mid-write left is removed by the
// next write of the same target: a user sees no hidden litter pile up
// beside a report rewritten by every CI run.
func TestNextWriteRemovesAKilledWritersTemp(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "report.json")
	cmd := startHalfWriter(t, target)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if left := temps(t, dir); len(left) != 1 {
		t.Fatalf("after the kill: temporary files %v, want the killed writer's one", left)
	}
	if err := Write(target, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if left := temps(t, dir); len(left) != 0 {
		t.Errorf("the killed writer's temporary file is still there: %v", left)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("target holds %q", b)
	}
}

// A writer still at work keeps its temporary file when another write of
// the same target finishes first; only a link or another file's temp
// named alike is never touched.
func TestNextWriteKeepsALiveWritersTemp(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "report.json")
	startHalfWriter(t, target)
	live := temps(t, dir)
	if len(live) != 1 {
		t.Fatalf("temporary files %v, want the live writer's one", live)
	}
	outside := filepath.Join(t.TempDir(), "keep")
	if err := os.WriteFile(outside, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, ".report.json.tmp-link")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, ".other.json.tmp-1")
	if err := os.WriteFile(other, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(target, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, live[0]), link, other, outside} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
}
