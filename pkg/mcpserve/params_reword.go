package mcpserve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/jsonvalue"
)

// paramsShapes are the params of the requests a client sends this server
// most, as the SDK's exported types give them: a refusal of their params
// says which member is wrong (paramsRefusal).
var paramsShapes = map[string]func() any{
	"initialize": func() any { return new(mcp.InitializeParams) },
	"tools/call": func() any { return new(mcp.CallToolParamsRaw) },
	"tools/list": func() any { return new(mcp.ListToolsParams) },
}

// sdkParamsMethod returns the method whose params the SDK refused in msg,
// its answer to a request whose params do not decode: it decodes them
// before any handler or middleware runs, and words the refusal with its Go
// types ("handling 'initialize': unmarshaling ... into a
// *mcp.initializeParamsV2: json: ... Go struct field ...").
func sdkParamsMethod(msg string) (string, bool) {
	rest, ok := strings.CutPrefix(msg, "handling '")
	if !ok {
		return "", false
	}
	method, why, ok := strings.Cut(rest, "': ")
	if !ok || !strings.Contains(why, " into a ") {
		return "", false
	}
	return method, true
}

// paramsRefusal words again the SDK's refusal of a method's params in
// their own terms: the member of the wrong kind, where the method's shape
// is known (paramsShapes).
func paramsRefusal(method string, params []byte) string {
	why := "see the Model Context Protocol's schema of " + method
	if shape, ok := paramsShapes[method]; ok && params != nil {
		if err := jsonvalue.OneExact(params, shape()); err != nil {
			why = jsonvalue.Reason(params, err)
		}
	}
	return fmt.Sprintf("kitsoki mcp serve: the params of %q are not what MCP's %s takes: %s", method, method, why)
}

// rewordParamsError returns resp with the SDK's refusal of its request's
// params, which were params, worded again (paramsRefusal); any other
// answer as it is.
func rewordParamsError(resp *jsonrpc.Response, params json.RawMessage) jsonrpc.Message {
	if resp.Error == nil {
		return resp
	}
	method, ok := sdkParamsMethod(resp.Error.Error())
	if !ok {
		return resp
	}
	var code int64
	if we, ok := errors.AsType[*jsonrpc.Error](resp.Error); ok {
		code = we.Code
	}
	out := *resp
	out.Error = &jsonrpc.Error{Code: code, Message: paramsRefusal(method, params)}
	return &out
}

// rewordEvent returns the event stream's event p with the SDK's refusal of
// a request's params worded again (paramsRefusal), the request found in
// body, one JSON-RPC message or a batch of them; any other event as it is.
func rewordEvent(p, body []byte) []byte {
	const data = "\ndata: "
	i := bytes.Index(p, []byte(data))
	if i < 0 || !bytes.HasSuffix(p, []byte("\n\n")) || !bytes.Contains(p, []byte(`"handling '`)) {
		return p
	}
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id,omitempty"`
		Error   *struct {
			Code    int64           `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data,omitempty"`
		} `json:"error"`
	}
	if json.Unmarshal(p[i+len(data):len(p)-2], &msg) != nil || msg.Error == nil {
		return p
	}
	method, ok := sdkParamsMethod(msg.Error.Message)
	if !ok {
		return p
	}
	msg.Error.Message = paramsRefusal(method, requestParams(body, method, msg.ID))
	out, err := json.Marshal(msg)
	if err != nil {
		return p
	}
	return append(append(append([]byte(nil), p[:i+len(data)]...), out...), "\n\n"...)
}

// requestParams returns the params of the request of body (one message or
// a batch) with method and id.
func requestParams(body []byte, method string, id json.RawMessage) []byte {
	type request struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	var batch []request
	if json.Unmarshal(body, &batch) != nil {
		var one request
		if json.Unmarshal(body, &one) != nil {
			return nil
		}
		batch = []request{one}
	}
	var want any
	_ = json.Unmarshal(id, &want)
	for _, r := range batch {
		var got any
		if r.Method == method && json.Unmarshal(r.ID, &got) == nil && got == want {
			return r.Params
		}
	}
	return nil
}
