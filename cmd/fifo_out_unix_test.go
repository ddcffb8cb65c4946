//go:build unix

package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO planted where an output goes, with nothing reading it, makes the
// real kitsoki process exit at once with an error naming the flag and the
// pipe, instead of blocking forever in open(2); the pipe stays a pipe.
func TestOutputFIFOWithoutReaderFailsAtOnce(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	for _, tc := range []struct {
		name, fifo string
		args       []string
		want       string
	}{
		{"graph -o", "out.svg", []string{"graph", "app.yaml", "-o", "out.svg"}, "named pipe (FIFO) that nothing is reading"},
		{"test --junit", "r.xml", []string{"test", "app.yaml", "--junit", "r.xml"}, "named pipe (FIFO) that nothing is reading"},
		{"test --json", "r.json", []string{"test", "app.yaml", "--json", "r.json"}, "named pipe (FIFO) that nothing is reading"},
		{"test --coverprofile", "c.lcov", []string{"test", "app.yaml", "--coverprofile", "c.lcov"}, "named pipe (FIFO) that nothing is reading"},
		{"test --trace-dir", "td/flows__a.jsonl", []string{"test", "app.yaml", "--trace-dir", "td"}, "not a regular file"},
		{"run --trace", "t.jsonl", []string{"run", "app.yaml", "--intent", "go", "--trace", "t.jsonl"}, "not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proj, _ := confineProject(t)
			writeFileT(t, filepath.Join(proj, "flows", "a.yaml"), confineFlow)
			fifo := filepath.Join(proj, tc.fifo)
			if err := os.MkdirAll(filepath.Dir(fifo), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			c := exec.Command(bin, tc.args...)
			c.Dir = proj
			out, code := runBounded(t, c)
			if code == 0 || !strings.Contains(out, tc.want) || !strings.Contains(out, tc.fifo) {
				t.Errorf("exit %d, want non-zero and %q naming %s:\n%s", code, tc.want, tc.fifo, out)
			}
			if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
				t.Errorf("the pipe was replaced: %v %v", st, err)
			}
		})
	}
}

// runBounded runs c to its end and returns its combined output and exit
// code; a process still running after a generous bound is killed and the
// test fails saying it hung (a bound on a hang, not a timing assumption).
func runBounded(t *testing.T, c *exec.Cmd) (string, int) {
	t.Helper()
	var out strings.Builder
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = c.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		c.Process.Kill()
		<-done
		t.Fatalf("%v still running after two minutes (blocked opening the pipe?):\n%s", c.Args, out.String())
	}
	return out.String(), c.ProcessState.ExitCode()
}

// A repository that plants, in the directory given to --cover-html, a page
// name as a symbolic link to a device or pipe outside the project (a
// link to /dev/sda as root in CI would lose the disk's first blocks) gets
// the link replaced by the page; nothing is written through it.
func TestCoverHTMLPageLinkedToAPipeOutsideIsReplaced(t *testing.T) {
	proj, outside := confineProject(t)
	writeFileT(t, filepath.Join(proj, "flows", "a.yaml"), confineFlow)
	fifo := filepath.Join(outside, "disk")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// a reader that never blocks the writer: what a device would accept
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := os.MkdirAll(filepath.Join(proj, "cov"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, page := range []string{"index.html", "file1.html"} {
		symlinkT(t, fifo, filepath.Join(proj, "cov", page))
	}
	t.Chdir(proj)
	if code, stdout, stderr := runCmd(t, "test", "app.yaml", "--sandbox", "--cover-html", "cov"); code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, stdout, stderr)
	}
	buf := make([]byte, 256)
	if n, _ := r.Read(buf); n > 0 {
		t.Errorf("the report went through the link outside: %q", buf[:n])
	}
	for _, page := range []string{"index.html", "file1.html"} {
		if st, err := os.Lstat(filepath.Join(proj, "cov", page)); err != nil || !st.Mode().IsRegular() {
			t.Errorf("cov/%s is not the written page: %v %v", page, st, err)
		}
	}
}
