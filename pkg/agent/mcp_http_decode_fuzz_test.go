package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/gotype"
)

// FuzzDecodeToolResult: whatever tools/call result an mcp_http endpoint
// sends, as the SDK decodes it, is an AskResponse or a transport error,
// never a panic, and the error never quotes the plugin's secret nor names
// a Go type; a text
// content holding JSON is the same JSON as its own decoding (sameJSON).
func FuzzDecodeToolResult(f *testing.F) {
	const secret = "tok-s3cret-9f2"
	for _, s := range []string{
		`{"content":[{"type":"text","text":"{\"intent\":\"go\",\"slots\":{}}"}],"structuredContent":{"intent":"go","slots":{}}}`,
		`{"content":[{"type":"text","text":"{\"intent\":\"go\",\"n\":1.0}"}],"structuredContent":{"intent":"go","n":1}}`,
		`{"content":[],"structuredContent":{"intent":"go"}}`,
		`{"isError":true,"content":[{"type":"text","text":"bad tok-s3cret-9f2"}]}`,
		`{"content":[{"type":"text","text":"[tok-s3cret-9f2"}],"structuredContent":[1]}`,
		`{"content":[{"type":"image","data":"","mimeType":"image/png"}]}`,
		`{"content":[{"type":"text","text":"[1]"}]}`, `{"content":[{"type":"text","text":"{\"intent\":5}"}]}`,
	} {
		f.Add([]byte(s))
	}
	tr := &mcpHTTPTransport{alias: "m", tool: "ask", redact: func(s string) string {
		return strings.ReplaceAll(s, secret, "[REDACTED]")
	}}
	f.Fuzz(func(t *testing.T, data []byte) {
		var res mcp.CallToolResult
		if json.Unmarshal(data, &res) != nil {
			return
		}
		r, err := tr.decode(&res)
		if (r == nil) == (err == nil) {
			t.Fatalf("answer %v and error %v", r, err)
		}
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, secret) || !strings.Contains(msg, "mcp_http plugin m") || gotype.Named(msg, data) != "" {
				t.Fatalf("error %q", msg)
			}
		}
		if text, ok := firstText(res.Content); ok {
			var v any
			if json.Unmarshal([]byte(text), &v) == nil && (strings.HasPrefix(text, "{") || strings.HasPrefix(text, "[")) && !sameJSON(text, v) {
				t.Fatalf("%q is not the same JSON as itself", text)
			}
		}
	})
}
