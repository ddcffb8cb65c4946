package mcpserve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/panicked"
)

// A panic under kitsoki mcp submit fails its one call in the one panic
// wording, its stack on stderr, and the server answers on: the submit
// after it is written. No input is known to panic submit's own tool, so
// the panicking tool is one added to the server NewSubmitServer returns
// (through the SDK's API), called by a real client over pipes.
func TestSubmitServerSurvivesAPanic(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sub.json")
	srv, err := NewSubmitServer([]byte(verdictSchema), out, "")
	if err != nil {
		t.Fatal(err)
	}
	srv.AddTool(&mcp.Tool{Name: "boom", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		panic("kaboom")
	})
	ctx := t.Context()
	cs := connectSubmit(t, srv)
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{}})
	want := "tool boom: the tool call panicked: kaboom (a kitsoki bug: please report it, with the stack kitsoki wrote to stderr)"
	if err != nil || !r.IsError || callText(r) != want {
		t.Fatalf("got %v %+v, want the tool error %q", err, r, want)
	}
	r, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: submitTool, Arguments: map[string]any{"decision": "approve"}})
	if err != nil || r.IsError {
		t.Fatalf("submit after the panic: %v %+v", err, r)
	}
	if b, _ := os.ReadFile(out); string(b) != `{"decision":"approve"}` {
		t.Fatalf("written %q", b)
	}
}

// panicking is a connection whose Read or Write panics, as the stdio
// transport's parsing of a client's params could.
type panicking struct {
	endless
	inWrite bool
}

func (p *panicking) Read(ctx context.Context) (jsonrpc.Message, error) {
	if !p.inWrite {
		panic("read kaboom")
	}
	return p.endless.Read(ctx)
}

func (p *panicking) Write(context.Context, jsonrpc.Message) error {
	panic("write kaboom")
}

// A panic in the stdio transport's Read or Write, which the SDK calls on
// goroutines of its own outside guardPanics, is that call's error in the
// one panic wording, its stack recorded; a request whose answer panicked
// is no longer waited for.
func TestStdioTransportPanicIsAnError(t *testing.T) {
	for _, inWrite := range []bool{false, true} {
		inner := &panicking{inWrite: inWrite}
		var stderr strings.Builder
		c, err := drainTransport{inner: fakeTransport{inner}, caught: toStderr(&stderr)}.Connect(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		where, value := "reading a message", "read kaboom"
		if inWrite {
			where, value = "writing a message", "write kaboom"
			if _, err := c.Read(t.Context()); err != nil {
				t.Fatal(err)
			}
			id, _ := jsonrpc.MakeID(float64(1))
			err = c.Write(t.Context(), &jsonrpc.Response{ID: id})
			if dc := c.(*drainConn); len(dc.pending) != 0 {
				t.Errorf("pending after a panicked answer: %v", dc.pending)
			}
		} else {
			_, err = c.Read(t.Context())
		}
		want := where + ": the stdio transport panicked: " + value + " (a kitsoki bug: please report it, with the stack kitsoki wrote to stderr)"
		if _, ok := errors.AsType[*panicked.Error](err); !ok || err.Error() != want {
			t.Errorf("got %v, want %q", err, want)
		}
		if !strings.HasPrefix(stderr.String(), "kitsoki: "+want+"\n") || !strings.Contains(stderr.String(), "drainConn") {
			t.Errorf("stderr:\n%s", stderr.String())
		}
	}
}
