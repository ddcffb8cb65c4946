package agent

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/gotype"
)

// FuzzDecodeBare: a bare MCP server's tools/call result (the existing
// engine's wire), whatever the endpoint sends, is an AskResponse or a
// transport error, never a panic, and the error never quotes the
// plugin's secret nor names a Go type.
func FuzzDecodeBare(f *testing.F) {
	const secret = "tok-s3cret-9f2"
	for _, s := range []string{
		`{"content":[{"type":"text","text":"{\"intent\":\"go\",\"slots\":{}}"}]}`,
		`{"content":[],"structuredContent":{"intent":"go"}}`,
		`{"isError":true,"content":[{"type":"text","text":"bad tok-s3cret-9f2"}]}`,
		`{"content":[{"type":"text","text":"not json tok-s3cret-9f2"}]}`,
		`{"content":[{"type":"image"}],"structuredContent":null}`,
		`[1,2]`, `null`, `"tok-s3cret-9f2"`,
		`{"content":[{"type":"text","text":"[1]"}]}`, `{"content":[],"structuredContent":{"intent":5}}`,
		`{"content":{"type":"text"}}`,
	} {
		f.Add([]byte(s))
	}
	tr := &mcpHTTPTransport{alias: "m", tool: "ask", redact: func(s string) string {
		return strings.ReplaceAll(s, secret, "[REDACTED]")
	}}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := tr.decodeBare(data)
		if (r == nil) == (err == nil) {
			t.Fatalf("answer %v and error %v", r, err)
		}
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, secret) || !strings.Contains(msg, "mcp_http plugin m") || gotype.Named(msg, data) != "" {
				t.Fatalf("error %q", msg)
			}
		}
	})
}
