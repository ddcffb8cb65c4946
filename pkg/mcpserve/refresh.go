package mcpserve

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/internal/yamlnode"

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
	if c.Err != "" {
		return toolError(fmt.Sprintf("tool %s is not available: the story or profile does not load: %s; list the tools again", name, c.Err))
	}
	names := slices.Sorted(maps.Keys(c.Tools))
	if len(names) == 0 {
		return toolError(fmt.Sprintf("tool %s is not available: the story does not offer it, nor any tool now (no agent alias it calls is enabled); list the tools again", name))
	}
	hint := ""
	if m := yamlnode.Suggest(name, names); m != "" {
		hint = " (" + yamlnode.Meant(m) + ")"
	}
	offered := names
	more := ""
	if len(offered) > offeredShown {
		offered, more = offered[:offeredShown], fmt.Sprintf(", … %d more", len(names)-offeredShown)
	}
	return toolError(fmt.Sprintf("tool %s is not available: the story does not offer it (misspelt, or its alias was removed or disabled); offered now: %s%s%s; list the tools again",
		name, strings.Join(offered, ", "), more, hint))
}

// offeredShown is how many tool names a call to an unknown tool lists.
const offeredShown = 8
