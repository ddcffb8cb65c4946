package storytest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPAsk serves, on loopback until the test ends, a real MCP server (the
// official Go SDK) named name with one tool, "ask" (the tool the mcp_http
// transport calls): each call's arguments are decoded into an A and handed
// to answer. It returns the URL an mcp_http alias takes as endpoint.
func MCPAsk[A any](t testing.TB, name string, answer func(req *mcp.CallToolRequest, args A) (*mcp.CallToolResult, error)) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: name, Version: "v0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "ask", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args A
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			return answer(req, args)
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	return ts.URL
}
