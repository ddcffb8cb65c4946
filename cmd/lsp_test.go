package cmd

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/lsptest"
	"kitsoki/internal/testing/storytest"
)

type procRWC struct {
	io.ReadCloser
	io.WriteCloser
}

func (p procRWC) Close() error {
	_ = p.WriteCloser.Close()
	return p.ReadCloser.Close()
}

// The real binary over stdio: a corpus story's diagnostics, with a typo
// planted in the unsaved buffer, equal `kitsoki validate --format json` on
// the same text, and shutdown/exit ends the process.
func TestLSPBinaryMatchesValidateJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the kitsoki binary")
	}
	src := storytest.Corpus(t, "fix-tests")
	bin := buildKitsoki(t)
	dir := t.TempDir()
	storytest.CopyTree(t, src, filepath.Join(dir, "fix-tests"))
	manifest := filepath.Join(dir, "fix-tests", "app.yaml")
	text, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	broken := string(text) + "\nroot_state: idle\n"

	// what validate says of the broken text, on disk in a twin copy
	twin := t.TempDir()
	if out, err := exec.Command("cp", "-r", filepath.Join(dir, "fix-tests"), twin).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	twinManifest := filepath.Join(twin, "fix-tests", "app.yaml")
	if err := os.WriteFile(twinManifest, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command(bin, "validate", "--format", "json", twinManifest).Output()
	var want []struct {
		File     string `json:"file"`
		Line     int    `json:"line"`
		Col      int    `json:"col"`
		Severity string `json:"severity"`
		Rule     string `json:"rule"`
		Message  string `json:"message"`
	}
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatalf("validate json: %v\n%s", err, out)
	}

	srv := startLSP(t, bin, dir)
	c := lsptest.Connect(t, procRWC{ReadCloser: srv.stdout, WriteCloser: srv.stdin})
	c.Open(manifest, broken)
	got := c.WaitUntil(manifest, func(p lsptest.Published) bool { return len(p.Diagnostics) > 0 })

	var wantHere []string
	for _, d := range want {
		if filepath.Base(d.File) == "app.yaml" && strings.HasPrefix(d.File, twin) {
			wantHere = append(wantHere, strings.Join([]string{itoa(d.Line), itoa(d.Col), d.Severity, d.Rule, d.Message}, "|"))
		}
	}
	var gotHere []string
	for _, d := range got.Diagnostics {
		sev := map[int]string{1: "error", 2: "warning"}[d.Severity]
		line := int(d.Range.Start.Line) + 1
		col := int(d.Range.Start.Character) + 1 // an ASCII story: UTF-16 units are runes
		gotHere = append(gotHere, strings.Join([]string{itoa(line), itoa(col), sev, d.Code, d.Message}, "|"))
	}
	if strings.Join(gotHere, "\n") != strings.Join(wantHere, "\n") || len(wantHere) == 0 {
		t.Fatalf("lsp diagnostics differ from validate --format json:\nlsp:\n%s\nvalidate:\n%s", strings.Join(gotHere, "\n"), strings.Join(wantHere, "\n"))
	}
	if disk, _ := os.ReadFile(manifest); string(disk) != string(text) {
		t.Error("the server wrote the file")
	}
	c.Shutdown()
	srv.waitExit(t)
}

// lspProcess is the real kitsoki binary serving lsp over pipes.
type lspProcess struct {
	stdin  io.WriteCloser
	stdout io.ReadCloser
	exited chan error
}

// startLSP starts bin's lsp rooted at dir, without debounce; the test's
// cleanup kills it.
func startLSP(t *testing.T, bin, dir string) *lspProcess {
	t.Helper()
	cmd := exec.Command(bin, "lsp", "--debounce", "0", "--root", dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &lspProcess{stdin: stdin, stdout: stdout, exited: make(chan error, 1)}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return p
}

// waitExit fails the test unless the server exits after shutdown/exit.
func (p *lspProcess) waitExit(t *testing.T) {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(lsptest.Wait):
		t.Fatal("kitsoki lsp did not exit after shutdown/exit")
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
