package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A client that writes its requests and closes stdin (a script piping
// into `kitsoki mcp serve`, or a client that exits right after its last
// call) gets an answer to every request read before the end, each exactly
// once, before Run returns: none is lost to the end of input.
func TestStdioAnswersEveryRequestReadBeforeEOF(t *testing.T) {
	_, dir := writeStory(t, storyYAML(upstream(t)))
	const n = 40
	var in strings.Builder
	in.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","id":"dup","method":"tools/list"}` + "\n") // a duplicate id must not hold the end forever
	in.WriteString(`{"jsonrpc":"2.0","id":"dup","method":"tools/list"}` + "\n")
	for i := 1; i <= n; i++ {
		if i%2 == 0 {
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"nope","arguments":{}}}`+"\n", i)
		} else {
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":"s%d","method":"tools/list"}`+"\n", i)
		}
	}
	for round := range 3 {
		s := newServer(t, dir)
		var out bytes.Buffer
		if err := s.MCP().Run(context.Background(), s.StdioTransport(strings.NewReader(in.String()), &out)); err != nil && !strings.Contains(err.Error(), "EOF") {
			t.Fatalf("run: %v", err)
		}
		seen := map[string]int{}
		for line := range strings.SplitSeq(strings.TrimSpace(out.String()), "\n") {
			var m struct{ ID json.RawMessage }
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("round %d: bad line %q: %v", round, line, err)
			}
			if string(m.ID) != `"dup"` {
				seen[string(m.ID)]++
			}
		}
		for i := 0; i <= n; i++ {
			id := fmt.Sprint(i)
			if i%2 == 1 {
				id = fmt.Sprintf(`"s%d"`, i)
			}
			if seen[id] != 1 {
				t.Fatalf("round %d: request %s answered %d times (want 1); answers %v", round, id, seen[id], seen)
			}
		}
	}
}

// Input that is not one JSON-RPC message per line ends the server with an
// error that says where (after how many messages) and what to send, once
// the requests read before it are answered.
func TestStdioBadInputIsAClearError(t *testing.T) {
	_, dir := writeStory(t, storyYAML(upstream(t)))
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n"
	for name, bad := range map[string]string{
		"not json": "this is not json\n",
		"too deep": `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "}\n",
	} {
		s := newServer(t, dir)
		var out bytes.Buffer
		err := s.MCP().Run(context.Background(), s.StdioTransport(strings.NewReader(init+bad), &out))
		if err == nil || !strings.Contains(err.Error(), "after 3 messages") || !strings.Contains(err.Error(), "one JSON-RPC 2.0 message per line") {
			t.Errorf("%s: err = %v", name, err)
		}
		if !strings.Contains(out.String(), `"id":1,"result"`) {
			t.Errorf("%s: the request before the bad input was not answered: %s", name, out.String())
		}
	}
}

// A batch line (MCP before 2025-06-18) of more than maxBatch messages ends
// the session with an error naming the line and the limit, once the
// requests before it are answered; a batch within it is answered whole.
func TestStdioBatchBounded(t *testing.T) {
	_, dir := writeStory(t, storyYAML(upstream(t)))
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	batch := func(n int) string {
		var b strings.Builder
		b.WriteString(` [`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":"b%d","method":"tools/list","params":{"cursor":"[,\"]"}}`, i)
		}
		b.WriteString("]\n")
		return b.String()
	}
	s := newServer(t, dir)
	var out bytes.Buffer
	err := s.MCP().Run(context.Background(), s.StdioTransport(strings.NewReader(init+batch(maxBatch)+batch(100_000)), &out))
	if err == nil || !strings.Contains(err.Error(), "after 66 messages") || !strings.Contains(err.Error(), "line 4 is a batch of more than 64 messages") {
		t.Fatalf("err = %v", err)
	}
	if n := strings.Count(out.String(), `"id":"b`); n != maxBatch {
		t.Fatalf("%d answers to the batch within the limit; want %d", n, maxBatch)
	}
}

// A request whose params the SDK cannot decode is answered, over stdio as
// over HTTP, an error naming the member and its place in the params, never
// the SDK's Go types ("... into a *mcp.initializeParamsV2: json: ... Go
// struct field ..."); a method whose shape is not known here points at
// the schema.
func TestStdioBadParamsNamePlace(t *testing.T) {
	_, dir := writeStory(t, storyYAML(upstream(t)))
	in := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":[1],"capabilities":{}}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":5}}` + "\n"
	s := newServer(t, dir)
	var out bytes.Buffer
	if err := s.MCP().Run(context.Background(), s.StdioTransport(strings.NewReader(in), &out)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`{"jsonrpc":"2.0","id":0,"error":{"code":0,"message":"kitsoki mcp serve: the params of \"initialize\" are not what MCP's initialize takes: line 1, column 20: protocolVersion: expected a string, got a list"}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"kitsoki mcp serve: the params of \"tools/call\" are not what MCP's tools/call takes: line 1, column 9: name: expected a string, got a number"}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"kitsoki mcp serve: the params of \"prompts/get\" are not what MCP's prompts/get takes: see the Model Context Protocol's schema of prompts/get"}}`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no answer %s in\n%s", want, out.String())
		}
	}
}
