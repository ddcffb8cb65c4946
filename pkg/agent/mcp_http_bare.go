package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/childproc"
)

// A bare server is one written to the existing engine's mcp_http wire
// (agent-contract §3): it answers a single JSON-RPC POST of tools/call,
// with no initialize and no session, and answers every POST alike, so the
// MCP initialize gets a result without a protocolVersion. Such servers
// work with the existing engine, so kitsoki keeps serving them: when the
// initialize answer says so, the transport switches to that wire for good
// (one POST per Ask, id 1, the AskRequest as the tool's arguments, the
// answer read as a tools/call result) and says so in its debug log.

// errBareServer is connect's answer when the server turned out bare.
var errBareServer = errors.New("the server answers no MCP initialize")

// isBareServer reports whether a failed MCP initialize means the server
// answered it, but not as an MCP server does (no protocol version).
func isBareServer(err error) bool {
	return err != nil && strings.Contains(err.Error(), "unsupported protocol version: \"\"")
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
	raw, err := io.ReadAll(io.LimitReader(resp.Body, int64(t.maxEvent)+1))
	if err != nil {
		return nil, t.failure(ctx, fmt.Sprintf("reading tool %q's answer", t.tool), err, &httpFailure{})
	}
	if len(raw) > t.maxEvent {
		return nil, t.errf(KindTransportError, "tool %q's answer is over %d bytes", t.tool, t.maxEvent)
	}
	if resp.StatusCode >= 400 {
		return nil, t.errf(KindTransportError, "tool %q: http %d: %s", t.tool, resp.StatusCode, childproc.Snippet(t.redact, string(raw)))
	}
	var rep bareRPCReply
	if err := json.Unmarshal(raw, &rep); err != nil {
		return nil, t.errf(KindTransportError, "tool %q answered with a body that is not one JSON-RPC object (%v): %q", t.tool, err, childproc.Snippet(t.redact, string(raw)))
	}
	if rep.Error != nil {
		return nil, t.errf(KindTransportError, "tool %q: rpc error %d: %s", t.tool, rep.Error.Code, childproc.Snippet(t.redact, rep.Error.Message))
	}
	if len(rep.Result) == 0 || string(rep.Result) == "null" {
		return nil, t.errf(KindTransportError, "tool %q: response has neither result nor error", t.tool)
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(rep.Result, &res); err != nil {
		return nil, t.errf(KindTransportError, "tool %q's result is not a tools/call result (%v): %q", t.tool, err, childproc.Snippet(t.redact, string(rep.Result)))
	}
	return t.decode(&res)
}

// useBare reports whether the transport talks the bare wire.
func (t *mcpHTTPTransport) useBare() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bare
}

// switchToBare records that the server is a bare one.
func (t *mcpHTTPTransport) switchToBare() {
	t.mu.Lock()
	t.bare = true
	t.mu.Unlock()
	if t.log != nil {
		t.log.Debug("mcp_http server answers no MCP initialize; using the existing engine's bare JSON-RPC wire", "agent", t.alias, "endpoint", t.endpoint)
	}
}
