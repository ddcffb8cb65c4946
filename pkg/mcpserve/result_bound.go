package mcpserve

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/human"
	"kitsoki/internal/jsonvalue"
)

// DefaultMaxResult is the largest tool result, encoded, a call answers
// when Options.MaxResult is 0: what an MCP client reads as one message
// (the SDK's line limit, which its stdio client enforces by ending the
// session, every other call in flight with it), less room for the
// JSON-RPC envelope.
const DefaultMaxResult = mcp.DefaultMaxLineLength - 64<<10

// boundResult returns out, the result of tool name carrying an answer of
// submission bytes, or a tool error saying why when out encoded passes
// max bytes. An answer past max is refused without encoding it, and one
// whose encoding is bounded under max (textBound) is passed without
// encoding it: the SDK encodes the result again to send it, and each
// encoding of a large answer allocates several times its size.
func boundResult(name string, out *mcp.CallToolResult, submission, max int) *mcp.CallToolResult {
	size := submission
	if size <= max && textBound(out) <= max {
		return out
	}
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

// textBound bounds the length of out encoded, for a result of text
// contents and a decoded JSON structuredContent: the rest (meta, the
// envelope) is encoded with the texts empty, and the texts and the
// structured content are added at their bounds.
func textBound(out *mcp.CallToolResult) int {
	shell, n := *out, 0
	shell.Content = make([]mcp.Content, len(out.Content))
	for i, c := range out.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			return math.MaxInt // not a result the handler builds: encode it
		}
		empty := *tc
		empty.Text = ""
		shell.Content[i] = &empty
		n += jsonvalue.StringBound(tc.Text) - len(`""`)
	}
	if shell.StructuredContent != nil {
		shell.StructuredContent = nil
		n += len(`,"structuredContent":`) + jsonvalue.EncodedBound(out.StructuredContent)
	}
	b, err := json.Marshal(&shell)
	if err != nil {
		return math.MaxInt
	}
	return n + len(b)
}
