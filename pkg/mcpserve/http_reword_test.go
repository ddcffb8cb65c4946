package mcpserve

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// A POST body that is no JSON-RPC message is refused 400 naming the
// place: where its JSON breaks, or which member of which message is of the
// wrong kind, never the SDK's decoder's words (fuzz18: FuzzHTTPHandler
// found "malformed payload: parse error: invalid ID type
// map[string]interface {}"). A good message after a bad one on the same
// connection is still served.
func TestHTTPMalformedBodyNamesPlace(t *testing.T) {
	addr := serveHTTP(t, limitedServer(t, HTTPLimits{}), "")
	const head = "the request body is not a JSON-RPC 2.0 message: "
	for body, want := range map[string]string{
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`:        head + `"id" is an object; an id is a string or a number`,
		"{\"jsonrpc\":\"2.0\",\n \"id\":1,\"method\":\"pi": head + "line 2, column 21: the JSON ends early (cut short?)",
		`{"jsonrpc":"2.0","id":1,"method":7}`:              head + `"method" is a number; a method is a string`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`:         head + `"jsonrpc" must be the string "2.0"`,
		`[]`: head + `it is an empty batch ([])`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},"x"]`:          head + `message 2 of the batch: it is a string, not an object`,
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`:            head + `"id" is 1e400, out of range of a 64-bit float`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1.5}}`:           head + `"error"."code" must be an integer`,
		`{"jsonrpc":"2.0","params":{}}`:                           head + `it has neither a "method" (a request) nor an "id" (an answer)`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":2}}`: head + `"error"."message" must be a string`,
	} {
		code, got := postMessage(t, addr, body)
		if code != http.StatusBadRequest || !strings.HasPrefix(string(got), "kitsoki mcp serve: "+want+"; ") || strings.Count(string(got), "\n") != 1 {
			t.Errorf("%s: %d %q\nwant 400 %q", body, code, got, want)
		}
	}
}

// A request whose params the SDK cannot decode is answered a JSON-RPC
// error naming the member and its place in the params, never the SDK's
// Go types (fuzz18: FuzzHTTPHandler found "... into a
// *mcp.initializeParamsV2: json: cannot unmarshal ... into Go struct
// field mcp.initializeParamsV2.protocolVersion of type string").
func TestHTTPBadParamsNamePlace(t *testing.T) {
	addr := serveHTTP(t, limitedServer(t, HTTPLimits{}), "")
	for body, want := range map[string]string{
		`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":[1],"capabilities":{}}}`: `kitsoki mcp serve: the params of "initialize" are not what MCP's initialize takes: line 1, column 20: protocolVersion: expected a string, got a list`,
		`{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"clientInfo":{"name":3}}}`:               `kitsoki mcp serve: the params of "initialize" are not what MCP's initialize takes: line 1, column 23: clientInfo.name: expected a string, got a number`,
	} {
		code, got := postMessage(t, addr, body)
		msg, ok := "", false
		for _, line := range strings.Split(string(got), "\n") {
			if m, is := eventError(line); is {
				msg, ok = m, true
			}
		}
		if !ok || msg != want {
			t.Errorf("%s: %d %q\nwant the error %q", body, code, got, want)
		}
	}
}

// postMessage posts body to the MCP endpoint at addr with the headers the
// streamable transport asks for, and returns the answer's status and body.
func postMessage(t *testing.T, addr, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, got
}
