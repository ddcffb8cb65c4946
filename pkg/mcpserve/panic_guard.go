package mcpserve

import (
	"context"
	"io"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/panicked"
)

// panicReport is what a caught panic's message asks to be sent with the
// report: the stack goes to the logger (stderr in kitsoki mcp serve).
const panicReport = "the stack kitsoki mcp serve wrote to stderr"

// catcher records a panic value p caught in where (what panicked: what),
// its stack where a report can find it, and returns it as the call's
// failure.
type catcher func(where, what string, p any) *panicked.Error

// toStderr is the catcher of kitsoki mcp submit, which has no logger: the
// stack goes to w (the process's stderr; claude, which starts it, may keep
// it or not).
func toStderr(w io.Writer) catcher {
	return func(where, what string, p any) *panicked.Error { return panicked.Logged(w, where, what, p) }
}

// guardPanics is the outermost receiving middleware: a panic in a request's
// handling (the refresh, a tool call and all it reaches: the agent layer,
// hooks, the sink) fails that one request and the server serves on. The
// SDK has no recover of its own: the panic would end the process and every
// client's session with it. A tool call answers a tool error, another
// request a JSON-RPC internal error; the stack is logged.
func (s *Server) guardPanics(next mcp.MethodHandler) mcp.MethodHandler {
	return guardRequests("kitsoki mcp serve", s.logPanic)(next)
}

// guardRequests is guardPanics for a server of program prog whose panics
// caught records.
func guardRequests(prog string, caught catcher) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				p := recover()
				if p == nil {
					return
				}
				where, what := "request "+method, "the request"
				if cr, ok := req.(*mcp.CallToolRequest); ok && cr.Params != nil {
					where, what = "tool "+cr.Params.Name, "the tool call"
				}
				pe := caught(where, what, p)
				if what == "the tool call" {
					res, err = toolError(pe.Error()), nil
					return
				}
				res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: prog + ": " + pe.Error()}
			}()
			return next(ctx, method, req)
		}
	}
}

// survive, deferred as the function itself in a goroutine of the server's
// own (the watcher's reload, closing a replaced catalog, ending an idle
// session), logs a panic there with its stack and lets the goroutine end:
// the server serves on with what it had.
func (s *Server) survive(where, what string) {
	if p := recover(); p != nil {
		s.logPanic(where, what, p)
	}
}

// logPanic logs the panic value p, caught in where, with its stack
// (which [Logger] writes as lines of their own).
func (s *Server) logPanic(where, what string, p any) *panicked.Error {
	pe := panicked.New(where, what, p)
	pe.Report = panicReport
	s.log.Error("kitsoki mcp serve: "+pe.Error(), slog.String(stackKey, string(pe.Stack)))
	return pe
}
