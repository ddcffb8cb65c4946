package tsmcp

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

var (
	//go:embed testdata/package.json
	packageJSON []byte
	//go:embed testdata/package-lock.json
	packageLock []byte
	//go:embed testdata/client.mjs
	clientJS []byte
)

// Plan is what the client does: spawn Command Args (stdio transport), list
// the tools, then make each call.
type Plan struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
	Calls   []Call            `json:"calls,omitempty"`
}

// Call is one tools/call.
type Call struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// Output is what the client saw.
type Output struct {
	Tools []struct {
		Name         string         `json:"name"`
		InputSchema  map[string]any `json:"inputSchema"`
		OutputSchema map[string]any `json:"outputSchema"`
	} `json:"tools"`
	Results []struct {
		Name   string `json:"name"`
		Error  string `json:"error"`
		Result struct {
			IsError           bool            `json:"isError"`
			StructuredContent json.RawMessage `json:"structuredContent"`
			Content           []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	} `json:"results"`
}

// installDir returns the directory holding node_modules and client.mjs, installing
// it on first use. It skips the test, saying so, when node or npm is missing.
func installDir(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the MCP TypeScript SDK client test needs node and npm (apt-get install nodejs npm)")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the MCP TypeScript SDK client test needs it to install @modelcontextprotocol/sdk")
	}
	h := sha256.New()
	h.Write(packageJSON)
	h.Write(packageLock)
	h.Write(clientJS)
	sum := hex.EncodeToString(h.Sum(nil))[:16]
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "kitsoki-test", "tsmcp-"+sum)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err == nil {
		return dir
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "tsmcp-install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	for name, body := range map[string][]byte{"package.json": packageJSON, "package-lock.json": packageLock, "client.mjs": clientJS} {
		if err := os.WriteFile(filepath.Join(tmp, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci of @modelcontextprotocol/sdk (from the npm registry, into %s) failed: %v\n%s", tmp, err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another test process installed it first: use theirs.
		if _, serr := os.Stat(filepath.Join(dir, "client.mjs")); serr != nil {
			t.Fatalf("install the TypeScript SDK into %s: %v", dir, err)
		}
	}
	return dir
}

// Run executes plan with the TypeScript SDK client. A client failure (the
// SDK throwing) fails the test with the client's stderr.
func Run(t testing.TB, plan Plan) *Output {
	t.Helper()
	dir := installDir(t)
	raw, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(dir, "client.mjs"), string(raw))
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("TypeScript SDK client failed: %v\nstderr:\n%s", err, stderr.String())
	}
	var out Output
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("TypeScript SDK client printed %q: %v\nstderr:\n%s", stdout.String(), err, stderr.String())
	}
	return &out
}
