//go:build linux

package cmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// trOpenPTY opens a pseudo-terminal pair (Linux /dev/ptmx).
func trOpenPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("ptsname: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("open pts: %v", err)
	}
	return m, s
}

// TestTraceShowColourOnTerminal: on a real terminal show colours its output
// unless NO_COLOR is set.
func TestTraceShowColourOnTerminal(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		m, s := trOpenPTY(t)
		if noColor {
			t.Setenv("NO_COLOR", "1")
		} else {
			t.Setenv("NO_COLOR", "")
			t.Setenv("TERM", "xterm")
		}
		got := make(chan string)
		go func() {
			var b bytes.Buffer
			io.Copy(&b, m) // until the slave side closes (EIO)
			got <- b.String()
		}()
		var errb bytes.Buffer
		root := newRootFor(s, &errb, nil)
		root.SetArgs([]string{"trace", "show", trTriage, "--turn", "3"})
		if err := root.Execute(); err != nil {
			t.Fatal(err, errb.String())
		}
		s.Close()
		out := <-got
		m.Close()
		if !strings.Contains(out, "deadline_exceeded") {
			t.Fatalf("terminal output: %q", out)
		}
		if colored := strings.Contains(out, "\x1b["); colored == noColor {
			t.Fatalf("NO_COLOR=%v: colour written = %v", noColor, colored)
		}
	}
}
