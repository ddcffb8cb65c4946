package cmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// cancelOn is a stdout that cancels the run's context, as a Ctrl-C would,
// once the output holds mark.
type cancelOn struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	mark   string
	cancel context.CancelCauseFunc
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	if strings.Contains(c.buf.String(), c.mark) {
		c.cancel(&interruption{sig: os.Interrupt})
	}
	return len(p), nil
}

// A Ctrl-C once the run has ended stops the --save-fixture step that
// follows: it ends in 130 saying nothing was saved, and leaves neither the
// fixture nor the scratch cassette in flows/ (the save used to ignore it,
// so a second Ctrl-C could kill it with the scratch file left).
func TestSaveFixtureInterrupted(t *testing.T) {
	dir := saveTree(t, "{{ world.n }}")
	file := filepath.Join(dir, "flows", "counted.yaml")
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	out := &cancelOn{mark: "→ finished", cancel: cancel}
	var errb bytes.Buffer
	code := runIOContext(ctx, []string{"run", dir, "--trace", filepath.Join(t.TempDir(), "t.jsonl"),
		"--intent", "count", "--intent", "count", "--intent", "done", "--save-fixture", file}, nil, out, &errb)
	if code != 130 || !strings.Contains(errb.String(), "run --save-fixture interrupted by Ctrl-C (SIGINT): the run ended, but the save was cut short; no fixture saved") {
		t.Fatalf("exit %d\n%s%s", code, out.buf.String(), errb.String())
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "flows"))
	if len(entries) != 1 { // .keep
		t.Fatalf("flows/ holds %v", entries)
	}
}
