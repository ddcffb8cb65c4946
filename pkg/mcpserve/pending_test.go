package mcpserve

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// endless is a connection whose client sends requests without end and
// never waits for an answer.
type endless struct {
	mcp.Connection
	n int64
}

func (e *endless) Read(context.Context) (jsonrpc.Message, error) {
	e.n++
	id, _ := jsonrpc.MakeID(float64(e.n))
	return &jsonrpc.Request{ID: id, Method: "tools/call"}, nil
}

func (e *endless) Write(context.Context, jsonrpc.Message) error { return nil }

// The server reads at most maxPending requests ahead of its answers: with
// that many unanswered, the next read waits for an answer (a client
// sending a million tool calls used to have each read at once, each a
// goroutine waiting for a call slot).
func TestPendingRequestsBounded(t *testing.T) {
	inner := &endless{}
	c, err := drainTransport{inner: fakeTransport{inner}}.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for range maxPending {
		if _, err := c.Read(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	// a read that would wait returns at once with an ended context
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if msg, err := c.Read(ended); err == nil {
		t.Fatalf("read request %v with %d unanswered; want the read to wait for an answer", msg, maxPending)
	}
	id, _ := jsonrpc.MakeID(float64(1))
	if err := c.Write(context.Background(), &jsonrpc.Response{ID: id}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Read(ended); err != nil {
		t.Fatalf("one answered, the next read still waits: %v", err)
	}
}

type fakeTransport struct{ c mcp.Connection }

func (f fakeTransport) Connect(context.Context) (mcp.Connection, error) { return f.c, nil }
