package mcpecho

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/agentplugins/echo"
)

// Options shapes the test server.
type Options struct {
	// Tool is the tool name; "" means "ask".
	Tool string
	// Structured answers in structuredContent (with a text copy, as the SDK
	// recommends); otherwise only a text content holds the AskResponse JSON.
	Structured bool
	// OnCall, when set, sees the HTTP headers of every tools/call.
	OnCall func(h http.Header)
	// Fault is the default fault for requests that name none; Alias the
	// default alias for sub-event kinds.
	Fault, Alias string
	// HTTP are the SDK's streamable HTTP options (nil = defaults).
	HTTP *mcp.StreamableHTTPOptions
}

// Server is the test server: an http.Handler plus Stop, which releases every
// hanging call so httptest.Server.Close does not wait on them.
type Server struct {
	http.Handler
	// URL is free for the test to record where the server listens.
	URL string

	stop     chan struct{}
	stopOnce sync.Once

	mu       sync.Mutex
	sessions map[string]bool // Mcp-Session-Id values seen on tools/call
	deletes  int             // DELETE requests seen (session ends)
}

// Sessions is how many distinct MCP sessions (Mcp-Session-Id values) made
// tool calls.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// Deletes is how many session-ending DELETE requests arrived.
func (s *Server) Deletes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.deletes
}

// Stop releases hanging calls. Safe to call more than once.
func (s *Server) Stop() { s.stopOnce.Do(func() { close(s.stop) }) }

// New builds the server.
func New(o Options) *Server {
	s := &Server{stop: make(chan struct{}), sessions: map[string]bool{}}
	tool := o.Tool
	if tool == "" {
		tool = "ask"
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "kitsoki-mcpecho", Version: "v0"}, nil)
	srv.AddTool(&mcp.Tool{
		Name:        tool,
		Description: "answers a kitsoki AskRequest like the echo test plugin",
		InputSchema: map[string]any{"type": "object"},
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return s.call(ctx, o, req)
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, o.HTTP)
	s.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.serve(o, h, w, r) })
	return s
}

// call answers one tools/call as the echo plugin would, acting out the
// request's fault (a refusal, an error result, garbage, a hang, a late or
// slow answer).
func (s *Server) call(ctx context.Context, o Options, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if o.OnCall != nil && req.Extra != nil {
		o.OnCall(req.Extra.Header)
	}
	var ask echo.Request
	if err := json.Unmarshal(req.Params.Arguments, &ask); err != nil {
		return nil, err
	}
	fault := echo.Fault(&ask, o.Fault)
	name, arg := echo.FaultArg(fault)
	switch name {
	case "echo_auth":
		auth := ""
		if req.Extra != nil {
			auth = req.Extra.Header.Get("Authorization")
		}
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "refusing credentials " + auth}}}, nil
	case "is_error":
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "deliberate tool failure"}}}, nil
	case "garbage":
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "this is not json"}}}, nil
	case "hang":
		select {
		case <-ctx.Done():
		case <-s.stop:
		}
		return nil, context.Canceled
	case "late":
		late := make(chan struct{})
		go func() { echo.SleepLate(&ask); close(late) }()
		select {
		case <-late:
		case <-s.stop:
		}
	case "slow":
		ms, _ := strconv.Atoi(arg)
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
		case <-s.stop:
		}
	}
	resp := echo.Answer(&ask, fault, echo.Alias(&ask, o.Alias), "mcp_http", os.Environ())
	b, err := json.Marshal(resp)
	if err != nil {
		return nil, err
	}
	if name == "transcript" {
		b = echo.WithTranscript(b)
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
	if o.Structured {
		res.StructuredContent = json.RawMessage(b)
	}
	return res, nil
}

// serve counts DELETEs and the sessions that called a tool, acts out the
// HTTP-level faults (a 500, a dropped connection), and hands the rest to
// the SDK's handler h.
func (s *Server) serve(o Options, h http.Handler, w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodDelete {
		s.mu.Lock()
		s.deletes++
		s.mu.Unlock()
	}
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m struct {
			Method string `json:"method"`
		}
		if id := r.Header.Get("Mcp-Session-Id"); id != "" && json.Unmarshal(body, &m) == nil && m.Method == "tools/call" {
			s.mu.Lock()
			s.sessions[id] = true
			s.mu.Unlock()
		}
		f := httpFault(body)
		if f == "" && isToolCall(body) {
			f = o.Fault
		}
		switch f {
		case "http500":
			http.Error(w, "internal failure: deliberate", http.StatusInternalServerError)
			return
		case "drop", "crash":
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
					return
				}
			}
			panic(http.ErrAbortHandler)
		}
	}
	h.ServeHTTP(w, r)
}

func isToolCall(body []byte) bool {
	var m struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(body, &m) == nil && m.Method == "tools/call"
}

// httpFault reads with.fault from a tools/call body without disturbing it.
func httpFault(body []byte) string {
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Arguments struct {
				With map[string]any `json:"with"`
			} `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method != "tools/call" {
		return ""
	}
	f, _ := msg.Params.Arguments.With["fault"].(string)
	return f
}
