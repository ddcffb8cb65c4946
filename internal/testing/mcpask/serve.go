package mcpask

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/pkg/agent"
)

// Serve starts the server and returns its endpoint URL; it stops when the
// test ends. answer turns each call's AskRequest (the tool's arguments)
// into the tool's result.
func Serve(t testing.TB, answer func(*agent.AskRequest) *mcp.CallToolResult) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "upstream", Version: "v0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "ask", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var ar agent.AskRequest
			if err := json.Unmarshal(req.Params.Arguments, &ar); err != nil {
				return nil, err
			}
			return answer(&ar), nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	return ts.URL
}
