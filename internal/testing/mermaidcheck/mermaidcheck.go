package mermaidcheck

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"kitsoki/internal/testing/npminstall"
)

var (
	//go:embed testdata/package.json
	packageJSON []byte
	//go:embed testdata/package-lock.json
	packageLock []byte
	//go:embed testdata/check.mjs
	checkJS []byte
)

// Result is what Mermaid's parser said of one text.
type Result struct {
	// Type is the diagram type Mermaid detected ("flowchart-v2").
	Type string
	// Err is the parser's message; "" when the text parsed.
	Err string
}

// Parse parses each text with Mermaid's parser (one node process for
// all) and returns what it said of each, in order. It skips the test,
// saying so, when node or npm is missing.
func Parse(t testing.TB, texts ...string) []Result {
	t.Helper()
	dir := npminstall.Dir(t, "mermaidcheck", "checking Mermaid output with Mermaid's parser",
		map[string][]byte{"package.json": packageJSON, "package-lock.json": packageLock, "check.mjs": checkJS},
		"node_modules/mermaid/package.json")
	tmp := t.TempDir()
	args := []string{filepath.Join(dir, "check.mjs")}
	for i, text := range texts {
		p := filepath.Join(tmp, strconv.Itoa(i)+".mmd")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run() // exit 1 when a text does not parse: the lines say which
	var out []Result
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			OK    bool   `json:"ok"`
			Type  string `json:"type"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("Mermaid check printed %q: %v\nstderr:\n%s", sc.Text(), err, stderr.String())
		}
		res := Result{Type: r.Type, Err: r.Error}
		if !r.OK && res.Err == "" {
			res.Err = "the parser failed without a message"
		}
		out = append(out, res)
	}
	if len(out) != len(texts) {
		t.Fatalf("Mermaid check answered %d of %d texts (%v)\nstderr:\n%s", len(out), len(texts), runErr, stderr.String())
	}
	return out
}
