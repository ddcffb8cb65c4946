package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
)

// A second write of a name WriteNew already wrote is refused with
// fs.ErrExist, the first file left whole; a new name is written.
func TestWriteNewRefusesAnExistingName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "reports", "r.json")
	if err := WriteNew(path, []byte("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteNew(path, []byte("second"), 0o644)
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second WriteNew: %v, want fs.ErrExist", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "first" {
		t.Fatalf("after the refused write the file holds %q, want first", got)
	}
	assertNoTemp(t, filepath.Dir(path))
}

// Writers racing for one new name: exactly one wins, the others are told
// the name is taken, and the file holds the winner's bytes whole.
func TestWriteNewRaceHasOneWinner(t *testing.T) {
	raceForOneName(t, osFS{})
}

// raceForOneName has 8 writers race WriteNew for one new name in a new
// directory: exactly one must win, the file holding its bytes whole, the
// others told the name is taken, and no temporary file left.
func raceForOneName(t *testing.T, fsys fsys) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	errs := atOnce(8, func(i int) error { return writeNew(fsys, path, fmt.Appendf(nil, "writer %d", i), 0o644) })
	won := -1
	for i, err := range errs {
		switch {
		case err == nil && won >= 0:
			t.Fatalf("writers %d and %d both wrote %s", won, i, path)
		case err == nil:
			won = i
		case !errors.Is(err, fs.ErrExist):
			t.Fatalf("writer %d: %v, want fs.ErrExist", i, err)
		}
	}
	if won < 0 {
		t.Fatal("no writer wrote the file")
	}
	if got, _ := os.ReadFile(path); string(got) != fmt.Sprintf("writer %d", won) {
		t.Fatalf("file holds %q, want writer %d's bytes", got, won)
	}
	assertNoTemp(t, dir)
}

// atOnce runs write(0) … write(n-1) in goroutines released together and
// returns their errors.
func atOnce(n int, write func(i int) error) []error {
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = write(i)
		})
	}
	close(start)
	wg.Wait()
	return errs
}

// noHardLinksFS is the process's file system with the link failing as it
// does on a file system without hard links (FAT: EPERM), counting the
// tries.
type noHardLinksFS struct {
	osFS
	tries *atomic.Int32
}

func (f noHardLinksFS) Link(oldname, newname string) error {
	f.tries.Add(1)
	return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.EPERM}
}

// Where the file system has no hard links, WriteNew claims the name
// exclusively and renames its file over the claim: a new name is written
// whole with its mode, a taken one is refused with fs.ErrExist and left
// as it was, and no temporary file or empty claim is left either way.
func TestWriteNewWithoutHardLinks(t *testing.T) {
	fsys := noHardLinksFS{tries: new(atomic.Int32)}
	tries := fsys.tries
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	if err := writeNew(fsys, path, []byte("first"), 0o640); err != nil {
		t.Fatal(err)
	}
	if tries.Load() == 0 {
		t.Fatal("WriteNew never tried the link: the path without hard links is not the one tested")
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o640 {
		t.Fatalf("the new file: %v %v, want mode 0640", st, err)
	}
	if err := writeNew(fsys, path, []byte("second"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second WriteNew: %v, want fs.ErrExist", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "first" {
		t.Fatalf("after the refused write the file holds %q, want first", got)
	}
	assertNoTemp(t, dir)
}

// Racing writers of one new name without hard links: one wins, whole;
// the others are told the name is taken, and none removes the winner's
// claim or file.
func TestWriteNewRaceWithoutHardLinks(t *testing.T) {
	fsys := noHardLinksFS{tries: new(atomic.Int32)}
	for range 20 {
		raceForOneName(t, fsys)
	}
}
