package scratchdir

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A directory whose process died (its lock file closed without remove)
// is swept once its lock file has settled; a live one, a fresh one and a
// lock file naming no directory Make made are not.
func TestSweepRemovesOnlyDeadDirectories(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	live, removeLive, err := Make("kitsoki-flow-")
	if err != nil {
		t.Fatal(err)
	}
	defer removeLive()
	dead, deadLock := madeThenDied(t)
	fresh, _ := madeThenDied(t)
	os.WriteFile(filepath.Join(dead, "left"), []byte("x"), 0o644)
	// a file (not a directory) with a lock file beside it: not Make's
	notDir := filepath.Join(tmp, "kitsoki-flow-file")
	os.WriteFile(notDir, nil, 0o644)
	os.WriteFile(notDir+lockSuffix, nil, 0o644)
	now := time.Now().Add(2 * settle)
	os.Chtimes(fresh+lockSuffix, now, now)
	sweep(tmp, "kitsoki-flow-", now)
	for _, gone := range []string{dead, deadLock} {
		if _, err := os.Lstat(gone); err == nil {
			t.Errorf("%s left after the sweep", gone)
		}
	}
	for _, kept := range []string{live, live + lockSuffix, fresh, notDir, notDir + lockSuffix} {
		if _, err := os.Lstat(kept); err != nil {
			t.Errorf("%s swept: %v", kept, err)
		}
	}
}

// madeThenDied is a directory Make made whose process died: its lock is
// released (the file closed, as death closes it) without remove.
func madeThenDied(t *testing.T) (dir, lock string) {
	t.Helper()
	m, err := mark("kitsoki-flow-")
	if err != nil {
		t.Fatal(err)
	}
	if m.lock == nil {
		t.Skip("no lock file could be made here")
	}
	m.lock.Close()
	return m.dir, m.dir + lockSuffix
}

// remove deletes the directory and its lock file.
func TestMakeRemove(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir, remove, err := Make("kitsoki-flow-")
	if err != nil {
		t.Fatal(err)
	}
	remove()
	for _, p := range []string{dir, dir + lockSuffix} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s left after remove", p)
		}
	}
}
