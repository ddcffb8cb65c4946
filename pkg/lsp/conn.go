package lsp

import (
	"context"
	"fmt"
	"io"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
)

// Serve runs the server on one stream (stdin/stdout in kitsoki lsp) until
// the client sends exit or closes the stream. A message the base protocol
// cannot read (frame.go) ends the session with that error.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	codec := &frameCodec{floor: s.costFloor}
	// handle makes conn the server's (s.conn) as it takes each message:
	// NewConn starts reading at once, so initialize, a didOpen and the
	// check it queues may all run before this goroutine goes on, and a
	// publish sent while no connection was known would be dropped.
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(rwc, codec), jsonrpc2.HandlerWithError(s.handle))
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		_ = conn.Close()
	}
	s.stopTimers()
	return codec.framingErr()
}

// handle adapts one jsonrpc2 request to glsp's protocol handler.
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (res any, err error) {
	defer func() {
		// jsonrpc2 calls handle on its read loop, with no recover: a panic
		// in any handler ended the server and the editor's session.
		if p := recover(); p != nil {
			res, err = nil, s.requestPanicked(conn, req, p)
		}
	}()
	gc := glsp.Context{
		Method: req.Method,
		Notify: func(method string, params any) { _ = conn.Notify(ctx, method, params) },
		Call:   func(method string, params any, result any) { _ = conn.Call(ctx, method, params, result) },
	}
	if req.Params != nil {
		gc.Params = *req.Params
	}
	if req.Method == "exit" {
		_, _, _, _ = s.proto.Handle(&gc)
		return nil, conn.Close()
	}
	s.mu.Lock()
	// the connection every notification goes to, known before this
	// message's handling can send or queue one (Serve)
	s.conn = conn
	shut := s.shut
	s.mu.Unlock()
	if shut { // LSP: after shutdown, requests fail and notifications are dropped
		if req.Notif {
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: fmt.Sprintf("kitsoki lsp is shut down: %s is refused; after shutdown send exit", req.Method)}
	}
	r, validMethod, validParams, err := s.proto.Handle(&gc)
	switch {
	case !validMethod:
		if req.Notif {
			return nil, nil // unknown notifications are ignored (LSP §3.16 "$/" and others)
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: fmt.Sprintf("method not supported: %s", req.Method)}
	case !validParams:
		msg := "invalid params"
		if err != nil {
			msg = err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
	}
	return r, nil
}
