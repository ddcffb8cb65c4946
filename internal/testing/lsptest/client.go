package lsptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Published is a publishDiagnostics notification as the client decodes it
// (glsp's IntegerOrString cannot be unmarshalled, so the wire form is read
// directly: Code is the rule id).
type Published struct {
	URI         string `json:"uri"`
	Version     *int   `json:"version"`
	Diagnostics []Diag `json:"diagnostics"`
}

// Diag is one published diagnostic.
type Diag struct {
	Range    protocol.Range `json:"range"`
	Severity int            `json:"severity"`
	Code     string         `json:"code"`
	Source   string         `json:"source"`
	Message  string         `json:"message"`
}

// Proto converts d back for a codeAction request.
func (d Diag) Proto() protocol.Diagnostic {
	sev := protocol.DiagnosticSeverity(d.Severity)
	return protocol.Diagnostic{Range: d.Range, Severity: &sev, Message: d.Message}
}

// Client is a connected LSP client.
type Client struct {
	t    testing.TB
	Conn *jsonrpc2.Conn

	mu    sync.Mutex
	diags map[string][]Published
	bad   []string // publishDiagnostics that did not decode, with why
	calls []string // methods of the requests the server sent
	shown []string // the messages of window/showMessage
	logs  []string // the messages of window/logMessage
	cond  *sync.Cond
}

// Wait bounds every wait against a hung server; tests never rely on it.
const Wait = 60 * time.Second

// Connect speaks LSP on rwc and sends initialize + initialized, naming
// roots (absolute directories) as the workspace folders: the server serves
// no document outside them.
func Connect(t testing.TB, rwc io.ReadWriteCloser, roots ...string) *Client {
	t.Helper()
	return ConnectWith(t, rwc, protocol.ClientCapabilities{}, roots...)
}

// ConnectWith is Connect for a client with the given capabilities.
func ConnectWith(t testing.TB, rwc io.ReadWriteCloser, caps protocol.ClientCapabilities, roots ...string) *Client {
	t.Helper()
	c := &Client{t: t, diags: map[string][]Published{}}
	c.cond = sync.NewCond(&c.mu)
	h := jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if !req.Notif {
			c.mu.Lock()
			c.calls = append(c.calls, req.Method)
			c.cond.Broadcast()
			c.mu.Unlock()
		}
		// window/showMessage and window/logMessage: kept by kind
		if to := map[string]*[]string{"window/showMessage": &c.shown, "window/logMessage": &c.logs}[req.Method]; to != nil && req.Params != nil {
			var m protocol.LogMessageParams
			if json.Unmarshal(*req.Params, &m) == nil {
				c.mu.Lock()
				*to = append(*to, m.Message)
				c.cond.Broadcast()
				c.mu.Unlock()
			}
		}
		if req.Method == "textDocument/publishDiagnostics" && req.Params != nil {
			var p Published
			err := json.Unmarshal(*req.Params, &p)
			c.mu.Lock()
			if err == nil {
				c.diags[p.URI] = append(c.diags[p.URI], p)
			} else {
				// kept, so a wait that times out says what it missed
				c.bad = append(c.bad, fmt.Sprintf("%v: %.300s", err, *req.Params))
			}
			c.cond.Broadcast()
			c.mu.Unlock()
		}
		return nil, nil
	})
	c.Conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(rwc, jsonrpc2.VSCodeObjectCodec{}), h)
	var res protocol.InitializeResult
	var folders []protocol.WorkspaceFolder
	for _, r := range roots {
		folders = append(folders, protocol.WorkspaceFolder{URI: fileURI(r), Name: filepath.Base(r)})
	}
	c.Call("initialize", protocol.InitializeParams{Capabilities: caps, WorkspaceFolders: folders}, &res)
	if res.ServerInfo == nil || res.ServerInfo.Name != "kitsoki" {
		t.Fatalf("initialize: server info %+v", res.ServerInfo)
	}
	c.Notify("initialized", protocol.InitializedParams{})
	return c
}

// Call sends a request and decodes its result.
func (c *Client) Call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	if err := c.Conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) {
	c.t.Helper()
	if err := c.Conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *Client) wait(path string, ok func([]Published) bool) []Published {
	c.t.Helper()
	uri := fileURI(path)
	var got []Published
	c.until(func() bool { got = c.diags[uri]; return ok(got) }, func() string {
		return fmt.Sprintf("no matching publishDiagnostics for %s (got %+v; undecodable: %q)", path, c.diags[uri], c.bad)
	})
	return got
}

// WaitCall waits until the server has sent a request of method.
func (c *Client) WaitCall(method string) {
	c.t.Helper()
	c.until(func() bool { return slices.Contains(c.calls, method) }, func() string {
		return fmt.Sprintf("the server sent no %s request (got %v)", method, c.calls)
	})
}

// WaitShown waits until the server has shown the user (window/showMessage)
// a message holding sub, and returns it.
func (c *Client) WaitShown(sub string) string {
	c.t.Helper()
	var got string
	c.until(func() bool {
		i := slices.IndexFunc(c.shown, func(m string) bool { return strings.Contains(m, sub) })
		if i >= 0 {
			got = c.shown[i]
		}
		return i >= 0
	}, func() string {
		return fmt.Sprintf("the server showed no message holding %q (got %q)", sub, c.shown)
	})
	return got
}

// until waits, with c.mu held, until ok holds; after Wait it fails the
// test with what says.
func (c *Client) until(ok func() bool, what func() string) {
	c.t.Helper()
	deadline := time.AfterFunc(Wait, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer deadline.Stop()
	start := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !ok() {
		if time.Since(start) > Wait {
			c.t.Fatal(what())
		}
		c.cond.Wait()
	}
}

// WaitDiags waits for the n-th publish for path.
func (c *Client) WaitDiags(path string, n int) Published {
	c.t.Helper()
	ps := c.wait(path, func(ps []Published) bool { return len(ps) >= n })
	return ps[n-1]
}

// WaitUntil waits until the latest publish for path satisfies ok.
func (c *Client) WaitUntil(path string, ok func(Published) bool) Published {
	c.t.Helper()
	ps := c.wait(path, func(ps []Published) bool { return len(ps) > 0 && ok(ps[len(ps)-1]) })
	return ps[len(ps)-1]
}

// Everything is every publishDiagnostics received so far, in order per
// URI.
func (c *Client) Everything() []Published {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Published
	for _, ps := range c.diags {
		out = append(out, ps...)
	}
	return out
}

// Logged is every window/logMessage received so far, in order: the
// server's notifications arrive in the order sent, so those logged before
// a publishDiagnostics a wait has seen are all here.
func (c *Client) Logged() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.logs)
}

// Open sends didOpen with text.
func (c *Client) Open(path, text string) {
	c.Notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: fileURI(path), LanguageID: "yaml", Version: 1, Text: text}})
}

// Change replaces the whole buffer of path.
func (c *Client) Change(path, text string, version int32) {
	c.Notify("textDocument/didChange", protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: fileURI(path)}, Version: version},
		ContentChanges: []any{protocol.TextDocumentContentChangeEventWhole{Text: text}},
	})
}

// Shutdown sends shutdown and exit.
func (c *Client) Shutdown() {
	c.t.Helper()
	var r any
	c.Call("shutdown", nil, &r)
	_ = c.Conn.Notify(context.Background(), "exit", nil)
}

// fileURI is the file:// URI of an absolute path.
func fileURI(p string) string {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
