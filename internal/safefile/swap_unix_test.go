//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A path swapped between the stat and the open (a regular file when
// stated, a FIFO or a file over the cap when opened) is refused by the
// check of what was opened, and the opened file is closed: ReadFile and
// ReadRootFile share that check through openChecked.
func TestOpenCheckedRefusesSwapAfterStat(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := makeFIFO(t, dir)
	statSmall := func(string) (fs.FileInfo, error) { return os.Stat(small) }
	for name, c := range map[string]struct {
		opened string
		want   error
	}{
		"to a FIFO":        {fifo, errNotRegular},
		"to a larger file": {big, ErrTooLarge},
	} {
		t.Run(name, func(t *testing.T) {
			var opened *os.File
			f, fi, err := openChecked("story.yaml", 10, statSmall, func(string) (*os.File, error) {
				var err error
				opened, err = openNoBlock(c.opened)
				return opened, err
			})
			if !errors.Is(err, c.want) || f != nil || fi != nil {
				t.Fatalf("swap %s: f=%v fi=%v err=%v, want %v", name, f, fi, err, c.want)
			}
			if _, err := opened.Stat(); !errors.Is(err, os.ErrClosed) {
				t.Fatalf("the refused file is left open: %v", err)
			}
		})
	}
}
