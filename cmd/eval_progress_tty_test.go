//go:build linux

package cmd

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// TestEvalProgressClipsTheCall: the progress bar eval run draws on a
// terminal names the dataset's call clipped, as the other lines do; the
// bar redraws its description on every job.
func TestEvalProgressClipsTheCall(t *testing.T) {
	dir, ds, cas := evBigCall(t) // -o: no reports/<call>/ past the name limit
	m, s := trOpenPTY(t)
	got := make(chan string)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, m) // until the slave side closes (EIO)
		got <- b.String()
	}()
	var out bytes.Buffer
	root := newRootFor(&out, s, nil)
	root.SetArgs([]string{"eval", "run", "--cassette", cas, "-o", filepath.Join(dir, "r.json"), ds})
	err := root.Execute()
	s.Close()
	tty := <-got
	m.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tty, "eval QQQQ") {
		t.Fatalf("no progress bar on the terminal: %.300q", tty)
	}
	clipped(t, "eval run's progress bar", tty, 16*diag.MaxMessage)
}
