package tsmcp

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/npminstall"
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
	return npminstall.Dir(t, "tsmcp", "the MCP TypeScript SDK client test",
		map[string][]byte{"package.json": packageJSON, "package-lock.json": packageLock, "client.mjs": clientJS},
		"node_modules/@modelcontextprotocol/sdk/package.json")
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
