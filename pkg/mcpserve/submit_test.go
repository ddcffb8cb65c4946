package mcpserve

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestSubmitServer(t *testing.T) {
	if _, err := NewSubmitServer([]byte(`{"type":"string"}`), "x", ""); err == nil || !strings.Contains(err.Error(), "top level must be") {
		t.Fatalf("non-object schema: %v", err)
	}
	out := filepath.Join(t.TempDir(), "sub.json")
	srv, err := NewSubmitServer([]byte(verdictSchema), out, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	cs := connectSubmit(t, srv)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != submitTool {
		t.Fatalf("tools %v %+v", err, tools)
	}
	r, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: submitTool, Arguments: map[string]any{"decision": "maybe"}})
	if !r.IsError || !strings.Contains(callText(r), "does not satisfy") {
		t.Fatalf("invalid answer: %+v", r)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("an invalid answer was written")
	}
	r, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: submitTool, Arguments: map[string]any{"decision": "approve"}})
	if r.IsError {
		t.Fatalf("valid answer refused: %s", callText(r))
	}
	if b, _ := os.ReadFile(out); string(b) != `{"decision":"approve"}` {
		t.Fatalf("written %q", b)
	}
	r, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: submitTool, Arguments: map[string]any{"decision": "reject"}})
	if !r.IsError {
		t.Fatal("a second answer was accepted")
	}
}

// connectSubmit serves srv over pipes with StdioTransport, as kitsoki mcp
// submit does, and connects a real client to it; both end with the test.
func connectSubmit(t *testing.T, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ss, err := srv.Connect(t.Context(), StdioTransport(sr, sw, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v"}, nil).Connect(t.Context(), &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}
