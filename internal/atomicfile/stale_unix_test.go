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
	"time"
)

// startHalfWriter starts the test binary as a writer of target that stops
// halfway (killHelperEnv; env adds to its environment) and returns it
// once it is there, holding its temporary file.
func startHalfWriter(t *testing.T, target string, env ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(append(os.Environ(), killHelperEnv+"="+target), env...)
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

// A writer killed before it wrote a byte leaves an empty temporary file
// whose lock is free. The next writes keep it while it is young (a live
// writer's temp is empty and unlocked for the moment between its create
// and its lock), and remove it once older than emptyStaleAge; a live
// writer's empty temp, however old, is kept, and writes of the target at
// once all succeed meanwhile.
func TestNextWriteRemovesAKilledWritersEmptyTempOnceOld(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "report.json")
	killed := startHalfWriter(t, target, killHelperEmptyEnv+"=1")
	dead := temps(t, dir)
	startHalfWriter(t, target, killHelperEmptyEnv+"=1")
	var live []string
	for _, n := range temps(t, dir) {
		if n != dead[0] {
			live = append(live, n)
		}
	}
	if len(dead) != 1 || len(live) != 1 {
		t.Fatalf("temporary files: killed writer's %v, live writer's %v; want one each", dead, live)
	}
	if err := killed.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed.Wait()
	for i, err := range atOnce(4, func(i int) error { return Write(target, []byte("new"), 0o644) }) {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	if left := temps(t, dir); len(left) != 2 {
		t.Fatalf("young empty temporary files were removed: %v left of %v and %v", left, dead, live)
	}
	old := time.Now().Add(-emptyStaleAge - time.Minute)
	for _, n := range append(dead, live...) {
		if err := os.Chtimes(filepath.Join(dir, n), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := Write(target, []byte("newer"), 0o644); err != nil {
		t.Fatal(err)
	}
	if left := temps(t, dir); len(left) != 1 || left[0] != live[0] {
		t.Errorf("temporary files left %v, want only the live writer's %v", left, live)
	}
}
