package mcpserve

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
)

// A panic under a tool call (here the trace sink's, which the agent layer
// calls on the request's goroutine, as it would a trace writer's bug) fails
// that call with a tool error in the one wording of internal/panicked, logs
// the stack, and the server goes on answering: the SDK has no recover, and
// the panic ended the process, every client's session with it.
func TestPanicInToolCallFailsOnlyThatCall(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			var boom atomic.Bool
			boom.Store(true)
			sink := agent.SinkFunc(func(ev agent.Event) error {
				if boom.Load() && ev.Kind == agent.EventCallStart {
					panic("sink boom")
				}
				return nil
			})
			logs := &storytest.SyncBuffer{}
			_, dir := writeStory(t, storyYAML(upstream(t)))
			s, err := New(Options{StoryPath: dir, Sink: sink, Logger: slog.New(slog.NewTextHandler(logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			cs := connectTransport(t, s, transport)
			ctx := context.Background()
			call := func() *mcp.CallToolResult {
				t.Helper()
				r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "kitsoki_agent_remote_ask", Arguments: map[string]any{"prompt": "hi"}})
				if err != nil {
					t.Fatalf("the call failed at the protocol level: %v", err)
				}
				return r
			}
			r := call()
			want := "tool kitsoki_agent_remote_ask: the tool call panicked: sink boom (a kitsoki bug: please report it, with " + panicReport + ")"
			if !r.IsError || callText(r) != want {
				t.Fatalf("the panicking call: error %v %q\nwant %q", r.IsError, callText(r), want)
			}
			if l := logs.String(); !strings.Contains(l, want) || !strings.Contains(l, "stack=") || !strings.Contains(l, "goroutine") {
				t.Fatalf("the stack is not logged:\n%s", l)
			}
			boom.Store(false)
			if r := call(); r.IsError || callText(r) != `"echo: hi"` {
				t.Fatalf("the next call on the same session: %v %q", r.IsError, callText(r))
			}
		})
	}
}

// connectTransport connects a real SDK client to s over the stdio framing
// (pipes) or streamable HTTP on loopback.
func connectTransport(t *testing.T, s *Server, transport string) *mcp.ClientSession {
	t.Helper()
	if transport == "stdio" {
		return connectPipe(t, s, nil)
	}
	ts := httptest.NewServer(s.HTTPHandler(""))
	t.Cleanup(ts.Close)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// kitsoki mcp serve's logger (Logger) writes a caught panic's stack as the
// stack itself, a line of it a line under the record's one line, where
// slog's text format put it all on that line with every newline escaped;
// the client still gets the one-line error.
func TestPanicStackIsLoggedLineByLine(t *testing.T) {
	sink := agent.SinkFunc(func(ev agent.Event) error {
		if ev.Kind == agent.EventCallStart {
			panic("sink boom")
		}
		return nil
	})
	logs := &storytest.SyncBuffer{}
	_, dir := writeStory(t, storyYAML(upstream(t)))
	s, err := New(Options{StoryPath: dir, Sink: sink, Logger: Logger(logs, slog.LevelWarn)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cs := connectTransport(t, s, "stdio")
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "kitsoki_agent_remote_ask", Arguments: map[string]any{"prompt": "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "tool kitsoki_agent_remote_ask: the tool call panicked: sink boom (a kitsoki bug: please report it, with " + panicReport + ")"
	if !r.IsError || callText(r) != want {
		t.Fatalf("the client got %v %q, want the one-line error %q", r.IsError, callText(r), want)
	}
	lines := strings.Split(strings.TrimSuffix(logs.String(), "\n"), "\n")
	if !strings.Contains(lines[0], "level=ERROR") || !strings.Contains(lines[0], want) || !strings.Contains(lines[0], "stack=below") {
		t.Fatalf("the record's line: %q", lines[0])
	}
	var goroutine, frame bool
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "    ") || strings.Contains(l, `\n`) {
			t.Fatalf("a stack line is not indented on a line of its own: %q\n%s", l, logs)
		}
		goroutine = goroutine || strings.HasPrefix(l, "    goroutine ")
		frame = frame || strings.Contains(l, "mcpserve.(*Server).logPanic")
	}
	if !goroutine || !frame {
		t.Fatalf("the stack is not there line by line:\n%s", logs)
	}
}
