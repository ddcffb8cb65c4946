//go:build unix

package trace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A named pipe where a trace goes (planted in --trace-dir or the sessions
// folder) or a device (--trace /dev/null) is refused at once with words
// saying so (it used to fail on its truncate with "invalid argument"),
// and the pipe is left as it was.
func TestCreateRefusesAPipeOrDevice(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "flows__a.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, p := range []string{fifo, os.DevNull} {
		done := make(chan error, 1)
		go func() {
			w, err := CreateWith(p, Header{AppID: "a"}, Options{})
			if err == nil {
				w.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, errTraceSpecial) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: err %v, want the special file refused", p, err)
			}
		case <-time.After(time.Minute): // a bound on a hang, not a timing assumption
			t.Fatalf("%s: CreateWith still blocked after a minute", p)
		}
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v %v", st, err)
	}
}
