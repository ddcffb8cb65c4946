package testrun

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOneStdout(t *testing.T) {
	if err := OneStdout("--json", "-", "--junit", "r.xml", "--coverprofile", ""); err != nil {
		t.Errorf("one on stdout: %v", err)
	}
	err := OneStdout("--json", "-", "--junit", "-")
	if err == nil || err.Error() != "--json - and --junit - both want stdout; write one of them to a file" {
		t.Errorf("two on stdout: %v", err)
	}
}

// TestWriteFiles: the JSON report goes to stdout for - (with a newline,
// controls escaped), the JUnit one to its file; a failure names the flag.
func TestWriteFiles(t *testing.T) {
	junitPath := filepath.Join(t.TempDir(), "r.xml")
	var stdout bytes.Buffer
	marshal := func() ([]byte, error) { return []byte("{\"a\":\"\u009b\"}"), nil }
	junit := func(w io.Writer) error { _, err := io.WriteString(w, "<testsuites/>"); return err }
	if err := WriteFiles(&stdout, "-", junitPath, marshal, junit); err != nil {
		t.Fatal(err)
	}
	if got := stdout.String(); got != `{"a":"\u009b"}`+"\n" {
		t.Errorf("stdout %q", got)
	}
	if b, err := os.ReadFile(junitPath); err != nil || string(b) != "<testsuites/>" {
		t.Errorf("junit file %q, %v", b, err)
	}
	stdout.Reset()
	if err := WriteFiles(&stdout, "", "", nil, nil); err != nil || stdout.Len() != 0 {
		t.Errorf("no outputs: %v, %q", err, stdout.String())
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(file, "r.json") // under a file: no directory to write in
	if err := WriteFiles(&stdout, bad, "", marshal, nil); err == nil || !strings.HasPrefix(err.Error(), "--json "+bad+": ") {
		t.Errorf("unwritable --json: %v", err)
	}
	failing := func() ([]byte, error) { return nil, errors.New("boom") }
	if err := WriteFiles(&stdout, "-", "", failing, nil); err == nil || err.Error() != "--json: boom" {
		t.Errorf("failing marshal: %v", err)
	}
}

// A report inside the project whose directory became a link out of it
// after kitsoki's check before the run (a fixture's process swapped it
// in) is refused by the write itself, naming the flag: nothing is written
// where the link leads.
func TestWriteFilesNeverThroughALinkOut(t *testing.T) {
	project, outside := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(project, "reports")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	t.Chdir(project)
	marshal := func() ([]byte, error) { return []byte("{}"), nil }
	err := WriteFiles(io.Discard, filepath.Join("reports", "r.json"), "", marshal, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "--json reports/r.json: ") || !strings.Contains(err.Error(), "leads out of the project root") {
		t.Errorf("--json through reports/: %v; want it refused naming the flag", err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("%d entries written outside the project", len(ents))
	}
}
