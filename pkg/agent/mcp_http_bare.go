package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"kitsoki/internal/childproc"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/safefile"
)

// A bare server speaks the existing engine's mcp_http wire
// (docs/compat/agent-contract.md §3): one JSON-RPC POST of tools/call, no
// initialize, no session. When the initialize answer shows one (no
// protocolVersion, or "method not found"), the transport switches to that
// wire for good: one POST per Ask, id 1, the answer read as a tools/call
// result.

// errBareServer is connect's answer when the server turned out bare.
var errBareServer = errors.New("the server answers no MCP initialize")

// isBareServer reports whether a failed MCP initialize means the server
// answered it, but not as an MCP server does: no protocol version, or
// JSON-RPC "method not found" (-32601).
func isBareServer(err error) bool {
	if err == nil {
		return false
	}
	if we, ok := errors.AsType[*jsonrpc.Error](err); ok && we.Code == jsonrpc.CodeMethodNotFound {
		return true
	}
	return strings.Contains(err.Error(), "unsupported protocol version: \"\"")
}

// bareRPCReply is the JSON-RPC envelope of a bare server's answer.
type bareRPCReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// askBare is one Ask on the existing engine's wire.
func (t *mcpHTTPTransport) askBare(ctx context.Context, req *AskRequest) (*AskResponse, error) {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": t.tool, "arguments": req}})
	if err != nil {
		return nil, t.errf(KindTransportError, "encode the request: %v", err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, t.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, t.errf(KindTransportError, "build the request: %v", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	resp, err := t.http.Do(hr)
	if err != nil {
		return nil, t.failure(ctx, fmt.Sprintf("calling tool %q (bare JSON-RPC)", t.tool), err, &httpFailure{})
	}
	defer resp.Body.Close()
	raw, err := safefile.ReadAtMost(resp.Body, int64(t.maxEvent))
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, t.errf(KindTransportError, "tool %q's answer is over %d bytes", t.tool, t.maxEvent)
	}
	if err != nil {
		return nil, t.failure(ctx, fmt.Sprintf("reading tool %q's answer", t.tool), err, &httpFailure{})
	}
	if resp.StatusCode >= 400 {
		return nil, t.errf(KindTransportError, "tool %q: http %d: %s", t.tool, resp.StatusCode, childproc.Snippet(t.redact, string(raw)))
	}
	var rep bareRPCReply
	if err := json.Unmarshal(raw, &rep); err != nil {
		return nil, t.errf(KindTransportError, "tool %q answered with a body that is not one JSON-RPC object (%s): %q", t.tool, jsonvalue.Reason(raw, err), childproc.Snippet(t.redact, string(raw)))
	}
	if rep.Error != nil {
		return nil, t.errf(KindTransportError, "tool %q: rpc error %d: %s", t.tool, rep.Error.Code, childproc.Snippet(t.redact, rep.Error.Message))
	}
	if len(rep.Result) == 0 || string(rep.Result) == "null" {
		return nil, t.errf(KindTransportError, "tool %q: response has neither result nor error", t.tool)
	}
	return t.decodeBare(rep.Result)
}

// bareToolResult is the part of a tools/call result the existing engine
// reads: content items are looked at only for their type and text, so an
// item kitsoki would not decode (an image whose data is not base64) before
// the text does not fail the call.
type bareToolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
}

// decodeBare reads a bare server's tools/call result as the existing
// engine does: isError fails the call with the first text item; else the
// first text item is the AskResponse, whatever structuredContent says
// (upstream ignores it); structuredContent is read only when there is no
// text item, where upstream fails the call.
func (t *mcpHTTPTransport) decodeBare(result json.RawMessage) (*AskResponse, error) {
	var res bareToolResult
	if err := json.Unmarshal(result, &res); err != nil {
		return nil, t.errf(KindTransportError, "tool %q's result is not a tools/call result (%s): %q", t.tool, jsonvalue.Reason(result, err), childproc.Snippet(t.redact, string(result)))
	}
	text, hasText := "", false
	for _, c := range res.Content {
		if c.Type == "text" {
			text, hasText = c.Text, true
			break
		}
	}
	if res.IsError {
		return nil, t.toolError(text, hasText)
	}
	raw, from := []byte(text), "text content"
	if !hasText {
		if sc := bytes.TrimSpace(res.StructuredContent); len(sc) == 0 || string(sc) == "null" {
			return nil, t.noAnswer()
		}
		raw, from = res.StructuredContent, "structuredContent"
	}
	return t.askResponse(raw, from)
}

// switchToBare records that the server is a bare one.
func (t *mcpHTTPTransport) switchToBare() {
	t.bare.Store(true)
	if t.log != nil {
		t.log.Debug("mcp_http server answers no MCP initialize; using the existing engine's bare JSON-RPC wire", "agent", t.alias, "endpoint", t.endpoint)
	}
}
