package mcpserve

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/human"
)

// DefaultMaxResult is the largest tool result, encoded, a call answers
// when Options.MaxResult is 0: what an MCP client reads as one message
// (the SDK's line limit, which its stdio client enforces by ending the
// session, every other call in flight with it), less room for the
// JSON-RPC envelope.
const DefaultMaxResult = mcp.DefaultMaxLineLength - 64<<10

// boundResult returns out, the result of tool name carrying an answer of
// submission bytes, or a tool error saying why when out encoded passes
// max bytes. An answer past max is refused without encoding it.
func boundResult(name string, out *mcp.CallToolResult, submission, max int) *mcp.CallToolResult {
	size := submission
	if size <= max {
		b, err := json.Marshal(out)
		if err != nil {
			return toolError(fmt.Sprintf("%s: the answer cannot be sent: %v", name, err))
		}
		if size = len(b); size <= max {
			return out
		}
	}
	e := toolError(fmt.Sprintf("%s: the agent's answer (%s) makes a result of %s or more, over the %s an MCP client reads as one message (a longer one ends its session); have the agent answer less",
		name, human.Size(int64(submission)), human.Size(int64(size)), human.Size(int64(max))))
	e.Meta = out.Meta
	return e
}
