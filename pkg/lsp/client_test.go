package lsp

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/lsptest"
)

type pipeRWC struct {
	io.Reader
	io.Writer
	closers []io.Closer
}

func (p pipeRWC) Close() error {
	for _, c := range p.closers {
		_ = c.Close()
	}
	return nil
}

// startInProcess runs a Server on pipes and connects a client to it.
func startInProcess(t *testing.T, opts Options) *client {
	t.Helper()
	return startInProcessC(t, opts)
}

type client struct {
	*lsptest.Client
	t testing.TB
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	c.Call(method, params, result)
}
func (c *client) waitDiags(path string, n int) published { c.t.Helper(); return c.WaitDiags(path, n) }
func (c *client) waitUntil(path string, ok func(published) bool) published {
	c.t.Helper()
	return c.WaitUntil(path, ok)
}

type (
	published = lsptest.Published
	wireDiag  = lsptest.Diag
)

func startInProcessC(t *testing.T, opts Options) *client {
	t.Helper()
	// The tests' stories live in temporary directories: the temp
	// directory is their workspace root.
	return startInProcessRoots(t, opts, os.TempDir())
}

// startInProcessCaps is startInProcess for a client with capabilities.
func startInProcessCaps(t *testing.T, opts Options, caps protocol.ClientCapabilities) *client {
	t.Helper()
	return startInProcessWith(t, opts, caps, os.TempDir())
}

// startInProcessRoots is startInProcess with the workspace folders the
// client names at initialize.
func startInProcessRoots(t *testing.T, opts Options, roots ...string) *client {
	t.Helper()
	return startInProcessWith(t, opts, protocol.ClientCapabilities{}, roots...)
}

// startInProcessWith starts a server in process for a client with caps
// that names roots as its workspace folders.
func startInProcessWith(t *testing.T, opts Options, caps protocol.ClientCapabilities, roots ...string) *client {
	t.Helper()
	return startServer(t, New(opts), caps, roots...)
}

// startServer runs srv on pipes and connects a client with caps that names
// roots as its workspace folders.
func startServer(t testing.TB, srv *Server, caps protocol.ClientCapabilities, roots ...string) *client {
	t.Helper()
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ctx, pipeRWC{Reader: sr, Writer: sw, closers: []io.Closer{sr, sw}})
	}()
	c := &client{Client: lsptest.ConnectWith(t, pipeRWC{Reader: cr, Writer: cw, closers: []io.Closer{cr, cw}}, caps, roots...), t: t}
	t.Cleanup(func() {
		_ = c.Conn.Close()
		cancel()
		<-done
	})
	return c
}

func open(c *client, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatal(err)
	}
	c.Open(path, string(b))
	return string(b)
}

func change(c *client, path, text string, version int32) { c.Change(path, text, version) }

// posOf is the LSP position of the first occurrence of needle in text,
// plus off runes.
func posOf(t *testing.T, text, needle string, off int) protocol.Position {
	t.Helper()
	i := strings.Index(text, needle)
	if i < 0 {
		t.Fatalf("%q not in text", needle)
	}
	before := text[:i]
	line := strings.Count(before, "\n")
	col := len([]rune(before[strings.LastIndex(before, "\n")+1:])) + off
	return protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(col)}
}
