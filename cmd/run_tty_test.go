//go:build linux

package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

var spinLine = regexp.MustCompile(`[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] host\.run  \d+\.\ds`)

// TestRunSpinnerOnTerminal runs the real binary on a pseudo-terminal with
// a host.run that waits for the test's signal file: while it waits the
// terminal shows a spinner with the handler and the elapsed time, redrawn
// in place; when it returns the spinner is gone and the log line starts
// at column 0. Off a terminal the same run prints no spinner.
func TestRunSpinnerOnTerminal(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	dir := t.TempDir()
	signal := filepath.Join(dir, "go")
	story := writeStory(t, `app: { id: spin, version: 0.1.0 }
hosts: [host.run]
root: start
states:
  start:
    on_enter:
      - invoke: host.run
        with: { cmd: "while [ ! -e '`+signal+`' ]; do sleep 0.02; done" }
    terminal: true
`)
	p := startOnPTYWith(t, bin, nil, true, "run", story, "--trace", filepath.Join(dir, "t.jsonl"))
	p.waitFor(t, "a spinner redrawn in place", func(raw string) bool {
		return len(spinLine.FindAllString(raw, -1)) >= 3 && strings.Contains(raw, "\r\x1b[K⠙")
	})
	last := screen(p.raw())
	if cur := last[len(last)-1]; !spinLine.MatchString(cur) {
		t.Fatalf("the spinner is not on the current line: %q", last)
	}
	os.WriteFile(signal, nil, 0o644)
	if code := p.wait(t); code != 0 {
		t.Fatalf("exit %d:\n%q", code, p.raw())
	}
	lines := screen(p.raw())
	t.Logf("terminal:\n%s", strings.Join(lines, "\n"))
	for _, l := range lines {
		if spinLine.MatchString(l) {
			t.Fatalf("spinner left on screen: %q", lines)
		}
	}
	if l, ok := lineStartingWith(lines, "  host.run"); !ok || !strings.Contains(l, "(") {
		t.Fatalf("the call's log line does not start at column 0: %q", lines)
	}
	if _, ok := lineStartingWith(lines, "terminal start"); !ok {
		t.Fatalf("no end line: %q", lines)
	}

	// Off a terminal: no spinner, no carriage returns.
	os.Remove(signal)
	cmd := exec.Command(bin, "run", story, "--trace", filepath.Join(dir, "t2.jsonl"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(signal, nil, 0o644)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if strings.ContainsAny(out.String(), "\r⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏") {
		t.Fatalf("spinner off a terminal: %q", out.String())
	}
}

// TestRunJSONInvalidStoryBinary: the real binary, an invalid story and
// --json: exit 1 and the error object on stdout.
func TestRunJSONInvalidStoryBinary(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	story := writeStory(t, "app: { id: bad, version: 0.1.0 }\nroot: nowhere\nstates:\n  s: { terminal: true }\n")
	cmd := exec.Command(bin, "run", story, "--json")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v (%s)", err, errb.String())
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil || m["outcome"] != "invalid" || m["schema"] != float64(1) || m["status"] != float64(1) {
		t.Fatalf("stdout %q: %v", out, err)
	}
	if !strings.Contains(errb.String(), "does not load") {
		t.Fatalf("stderr: %q", errb.String())
	}
}

func TestCallSpinnerOnlyOnATerminal(t *testing.T) {
	if newCallSpinner(&bytes.Buffer{}) != nil {
		t.Fatal("spinner on a buffer")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if newCallSpinner(w) != nil {
		t.Fatal("spinner on a pipe")
	}
	m, s := trOpenPTY(t)
	defer m.Close()
	defer s.Close()
	t.Setenv("TERM", "dumb")
	if newCallSpinner(s) != nil {
		t.Fatal("spinner with TERM=dumb")
	}
	t.Setenv("TERM", "xterm")
	sp := newCallSpinner(s)
	if sp == nil {
		t.Fatal("no spinner on a terminal")
	}
	sp.close()
}

// TestStatusLinesFitTheTerminal: a status line longer than the terminal
// is cut one column short of its width, so \r + ESC[K can erase it.
func TestStatusLinesFitTheTerminal(t *testing.T) {
	m, s := trOpenPTY(t)
	defer m.Close()
	defer s.Close()
	if err := unix.IoctlSetWinsize(int(m.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: 20}); err != nil {
		t.Skipf("set window size: %v", err)
	}
	if got := fitWidth(s, strings.Repeat("é", 50)); got != strings.Repeat("é", 19) {
		t.Fatalf("cut to %d runes", len([]rune(got)))
	}
	if got := fitWidth(s, "short"); got != "short" {
		t.Fatalf("short line changed: %q", got)
	}
	if got := fitWidth(&bytes.Buffer{}, strings.Repeat("x", 500)); len(got) != 500 {
		t.Fatal("cut off a terminal")
	}
}
