package lsp

import (
	"context"
	"fmt"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/panicked"
)

// panicReport is what a caught panic's message asks to be sent with the
// report: the stack is written to Options.Stderr.
const panicReport = "the stack kitsoki lsp wrote to stderr"

// caught records the panic value p, caught in where (what panicked: what):
// its stack goes to Options.Stderr and its message to the editor's user
// (window/showMessage), since a notification has no answer to carry it.
// The session goes on: the editor keeps its server, and the next edit is
// checked. conn is the connection when known (a request's handling may
// have panicked holding s.mu, which s.notify takes), else nil.
func (s *Server) caught(conn *jsonrpc2.Conn, where, what string, p any) *panicked.Error {
	pe := panicked.New(where, what, p)
	pe.Report = panicReport
	if w := s.opts.Stderr; w != nil {
		_, _ = fmt.Fprintf(w, "kitsoki lsp: %s\n%s\n", pe.Error(), pe.Stack)
	}
	msg := protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: "kitsoki lsp: " + pe.Error()}
	if conn != nil {
		_ = conn.Notify(context.Background(), string(protocol.ServerWindowShowMessage), msg)
	} else {
		s.notify(string(protocol.ServerWindowShowMessage), msg)
	}
	return pe
}

// survive, deferred as the function itself in a goroutine of the server's
// own (a story check, a debounce timer, the profile watch), records a
// panic there (caught) and lets the goroutine end normally.
func (s *Server) survive(where, what string) {
	if p := recover(); p != nil {
		s.caught(nil, where, what, p)
	}
}

// requestPanicked is the answer to req whose handling panicked with p: an
// internal error naming the method (nil for a notification, which has no
// answer).
func (s *Server) requestPanicked(conn *jsonrpc2.Conn, req *jsonrpc2.Request, p any) error {
	pe := s.caught(conn, req.Method, "the "+kindOf(req), p)
	if req.Notif {
		return nil
	}
	return &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: "kitsoki lsp: " + pe.Error()}
}

func kindOf(req *jsonrpc2.Request) string {
	if req.Notif {
		return "notification"
	}
	return "request"
}
