package lsp

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/lsptest"
	"kitsoki/internal/testing/storytest"
)

// The read loop jsonrpc2.NewConn starts may handle initialize,
// initialized and a didOpen, and the check that queues may publish,
// before Serve's own goroutine runs past NewConn (a loaded machine can
// hold it off that long): the file's diagnostics and the profile
// watch's registration still reach the client. The server's handler runs
// here on a connection Serve never saw, the state Serve is in until its
// goroutine runs again.
func TestNotificationsBeforeServeGoesOn(t *testing.T) {
	root := storytest.TempTree(t, map[string]string{"story/app.yaml": "app: {id: early}\nroot: a\nstates:\n  a:\n    on:\n      go: [{target: nowhere}]\n"})
	manifest := filepath.Join(root, "story", "app.yaml")
	srv := New(Options{})
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	stream := jsonrpc2.NewBufferedStream(pipeRWC{Reader: sr, Writer: sw, closers: []io.Closer{sr, sw}}, &frameCodec{floor: srv.costFloor})
	served := jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(srv.handle))
	var caps protocol.ClientCapabilities
	if err := json.Unmarshal([]byte(`{"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}}`), &caps); err != nil {
		t.Fatal(err)
	}
	c := &client{Client: lsptest.ConnectWith(t, pipeRWC{Reader: cr, Writer: cw, closers: []io.Closer{cr, cw}}, caps, root), t: t}
	t.Cleanup(func() {
		// the client's side is closed, and the server's read loop closes
		// its own on the end of input: a Close from here could meet the
		// reply to the watch's registration being read (jsonrpc2 then
		// sends on the call's closed channel and panics)
		_ = c.Conn.Close()
		<-served.DisconnectNotify()
		srv.stopTimers()
	})
	open(c, manifest)
	if got := c.waitDiags(manifest, 1); len(got.Diagnostics) == 0 {
		t.Fatalf("publish %+v: want the finding of the unknown target", got)
	}
	c.WaitCall("client/registerCapability")
}
