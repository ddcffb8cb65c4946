package mcpserve

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/atomicfile"
	"kitsoki/pkg/schema"
)

// submitTool is the name of the one tool of a submit server.
const submitTool = "submit"

// NewSubmitServer returns the MCP server kitsoki hands to `claude` for one
// decide call (kitsoki mcp submit): a single tool, submit, whose input
// schema is the call's schema. A call is validated against that schema; an
// invalid one is a tool error the model can correct; the first valid one
// is written atomically to out, and later calls are refused. The schema's
// top level must be an object (MCP tool inputs are objects).
func NewSubmitServer(schemaRaw []byte, out, version string) (*mcp.Server, error) {
	sch, err := schema.CompileBytes("submit-schema.json", schemaRaw)
	if err != nil {
		return nil, fmt.Errorf("submit schema: %v", err)
	}
	var top map[string]any
	if err := json.Unmarshal(schemaRaw, &top); err != nil || top["type"] != "object" {
		return nil, errors.New(`submit schema: the top level must be {"type": "object", ...} to be a tool input; the plain-text answer path applies instead`)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "kitsoki-submit", Version: cmp.Or(version, "dev")}, nil)
	// a panic fails its one request, its stack on stderr, and the answer
	// already written stays (as in kitsoki mcp serve: guardPanics)
	srv.AddReceivingMiddleware(guardRequests("kitsoki mcp submit", toStderr(os.Stderr)))
	var mu sync.Mutex
	done := false
	srv.AddTool(&mcp.Tool{Name: submitTool, InputSchema: json.RawMessage(schemaRaw),
		Description: "Submit your final answer. Its arguments are the answer itself and must satisfy the input schema; call it exactly once."},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			raw := req.Params.Arguments
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				return toolError("the answer is not JSON: " + err.Error()), nil
			}
			if ve := sch.Validate(v); ve != nil {
				return toolError("the answer does not satisfy the schema: " + ve.Error() + "; fix it and call submit again"), nil
			}
			mu.Lock()
			defer mu.Unlock()
			if done {
				return toolError("an answer was already submitted; stop here"), nil
			}
			if err := atomicfile.Write(out, raw, 0o600); err != nil {
				return nil, fmt.Errorf("%s: %v", out, err)
			}
			done = true
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "submitted"}}}, nil
		})
	return srv, nil
}
