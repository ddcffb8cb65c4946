package pluginkit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// MaxFrame is the largest request line Serve reads, in bytes: kitsoki's
// own cap on one JSON-RPC message, which an answer line must stay under
// too (put bulky output in a file and name it in the answer).
const MaxFrame = 64 << 20

// JSON-RPC error codes. Serve answers with the first three itself; a
// Handler returns an *Error with CodeServer (or its own code in
// -32099..-32000) to fail a call with data kitsoki records.
const (
	// CodeParse: the request line is not JSON.
	CodeParse = -32700
	// CodeMethodNotFound: a method other than agent.ask.
	CodeMethodNotFound = -32601
	// CodeInvalidParams: params that do not decode as a Request.
	CodeInvalidParams = -32602
	// CodeServer: the code Serve gives a Handler's plain error.
	CodeServer = -32000
)

// Handler answers one agent call. ctx ends at the request's soft deadline,
// or when kitsoki stops the plugin. A returned error becomes a JSON-RPC
// error reply (kitsoki reports it as plugin_crash with its message); return
// an *Error to choose the code and data.
type Handler func(ctx context.Context, req *Request) (*Response, error)

// Error is a JSON-RPC error a Handler may return.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// Serve answers requests on stdin/stdout until stdin closes, SIGTERM or
// SIGINT. The frames go to the process's stdout as it was when Serve
// started; from then on whatever else the plugin writes to stdout (a
// stray print, a child process's output) goes to stderr, which kitsoki
// logs, so it cannot corrupt the stream.
func Serve(h Handler) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := ServeIO(ctx, os.Stdin, protocolStdout(), h)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  *Response       `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// ServeIO is Serve on explicit streams: it answers each request line of in
// with one line on out, in order, until in ends (nil) or ctx ends.
func ServeIO(ctx context.Context, in io.Reader, out io.Writer, h Handler) error {
	return serveIO(ctx, in, out, h, MaxFrame)
}

func serveIO(ctx context.Context, in io.Reader, out io.Writer, h Handler, maxFrame int) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		line, err := readLine(r, maxFrame)
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		resp := answer(ctx, line, h)
		b, merr := json.Marshal(resp)
		if merr != nil {
			b, _ = json.Marshal(rpcResponse{JSONRPC: "2.0", ID: resp.ID, Error: &Error{Code: CodeServer, Message: "marshal answer: " + merr.Error()}})
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
}

// readLine reads one line of at most max bytes.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > max {
			return nil, fmt.Errorf("pluginkit: a request line is larger than %d bytes", max)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return buf, err
	}
}

func answer(ctx context.Context, line []byte, h Handler) rpcResponse {
	var req rpcRequest
	if err := json.Unmarshal(line, &req); err != nil {
		return rpcResponse{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &Error{Code: CodeParse, Message: "parse error: " + parseReason(err)}}
	}
	resp := rpcResponse{JSONRPC: "2.0", ID: req.ID}
	if req.Method != "agent.ask" {
		resp.Error = &Error{Code: CodeMethodNotFound, Message: "method not found: " + req.Method}
		return resp
	}
	var ask Request
	if err := json.Unmarshal(req.Params, &ask); err != nil {
		resp.Error = &Error{Code: CodeInvalidParams, Message: "invalid params: " + paramsReason(req.Params, err)}
		return resp
	}
	cctx := ctx
	if !ask.Deadline.IsZero() {
		var cancel context.CancelFunc
		cctx, cancel = context.WithDeadline(ctx, ask.Deadline)
		defer cancel()
	}
	out, err := h(cctx, &ask)
	var e *Error
	switch {
	case errors.As(err, &e):
		resp.Error = e
	case err != nil:
		resp.Error = &Error{Code: CodeServer, Message: err.Error()}
	case out == nil:
		resp.Result = &Response{}
	default:
		resp.Result = out
	}
	return resp
}
