package mcpserve

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// A stdio request whose params hold millions of empty objects (a ping's
// _meta, which the SDK decodes into any: 15 MB took 490 MB) is answered
// an error naming its size and the limit before the SDK decodes it, and
// the next request is served; a notification of the same, which has no
// answer, ends the input with that error. The whole session allocates
// 13 times the input (before, 90 times it: 810 MB for 9 MB).
func TestStdioCostlyParamsAreRefused(t *testing.T) {
	_, dir := writeStory(t, storyYAML(upstream(t)))
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	// The limit is the same rule at a floor of 16 MiB, not 256 MiB, so a
	// tenth of the input (300,000 empty objects, over 16 MiB once read)
	// crosses it.
	const floor = 16 << 20
	meta := `{"_meta":{"a":[` + strings.Repeat("{},", 300_000) + `{}]}}`
	in := init + `{"jsonrpc":"2.0","id":1,"method":"ping","params":` + meta + "}\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n"
	s := newServerWith(t, Options{StoryPath: dir, CostFloor: floor})
	var out bytes.Buffer
	var err error
	alloc := allocs.During(func() { err = s.MCP().Run(context.Background(), s.StdioTransport(strings.NewReader(in), &out)) })
	t.Logf("serving %d bytes allocated %d", len(in), alloc)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"kitsoki mcp serve: request refused: its params (900020 bytes) would take over 16 MiB once read`; !strings.Contains(out.String(), want) {
		t.Fatalf("the costly ping: %.600s; want %s", out.String(), want)
	}
	if !strings.Contains(out.String(), `"id":2,"result":{`) {
		t.Fatalf("the request after it was not served: %.600s", out.String())
	}
	if alloc > 20*uint64(len(in)) {
		t.Errorf("serving %d bytes allocated %d", len(in), alloc)
	}

	s = newServerWith(t, Options{StoryPath: dir, CostFloor: floor})
	out.Reset()
	err = s.MCP().Run(context.Background(), s.StdioTransport(strings.NewReader(init+`{"jsonrpc":"2.0","method":"notifications/progress","params":`+meta+"}\n"), &out))
	if err == nil || !strings.Contains(err.Error(), "after 3 messages: message 3: its params (900020 bytes) would take over 16 MiB once read") {
		t.Fatalf("the costly notification: %v", err)
	}
}
