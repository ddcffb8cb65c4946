package mcpserve

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// refreshOnRequest re-reads the story, profile and schemas (Refresh) before
// every tools/list and tools/call, ahead of the SDK's own tool lookup, so
// even without a watcher the tools are current; a call to a tool no longer
// offered gets a tool error saying why.
func (s *Server) refreshOnRequest(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/list" || method == "tools/call" {
			_ = s.Refresh()
		}
		if cr, ok := req.(*mcp.CallToolRequest); ok && cr.Params != nil {
			if r := s.unavailable(cr.Params.Name); r != nil {
				return r, nil
			}
		}
		return next(ctx, method, req)
	}
}

// unavailable is the tool error for a call to a kitsoki tool the current
// catalog does not offer (nil when it does, or the name is not one of ours).
func (s *Server) unavailable(name string) *mcp.CallToolResult {
	c := s.Current()
	if c == nil || c.Tools[name] != nil || !strings.HasPrefix(name, toolPrefix) {
		return nil
	}
	return notOffered(c, name)
}

// notOffered is the tool error for a call to name, which c does not offer.
func notOffered(c *Catalog, name string) *mcp.CallToolResult {
	why := "it is no longer offered (its alias was removed or disabled)"
	if c.Err != "" {
		why = "the story or profile does not load: " + c.Err
	}
	return toolError(fmt.Sprintf("tool %s is not available: %s; list the tools again", name, why))
}
