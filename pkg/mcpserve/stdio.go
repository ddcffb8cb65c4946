package mcpserve

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/human"
	"kitsoki/pkg/agent"
)

// StdioTransport serves MCP over r and w with the newline-delimited stdio
// framing (mcp.IOTransport), passing on the end of input only once every
// request read has been answered: the SDK would otherwise end the session
// while handlers still run. hold bounds that wait; closing the connection
// or ending the context ends it at once.
// A panic reading or writing a message is written to stderr with its stack
// (see drainConn.guard).
func StdioTransport(r io.Reader, w io.Writer, hold time.Duration) mcp.Transport {
	return stdioTransport(r, w, hold, DefaultMaxQueued, toStderr(os.Stderr))
}

func stdioTransport(r io.Reader, w io.Writer, hold time.Duration, maxQueued int, caught catcher) drainTransport {
	return drainTransport{inner: &mcp.IOTransport{Reader: io.NopCloser(&batchReader{r: r, line: 1, start: true}), Writer: nopWriteCloser{w}}, hold: hold, maxQueued: maxQueued, caught: caught}
}

// maxBatch bounds the messages of one JSON-RPC batch (a line holding an
// array, which MCP before 2025-06-18 allows): the SDK answers a batch in
// one line once every request in it is answered, so a long batch holds
// every answer, and a goroutine each, until the last is done.
const maxBatch = 64

// batchReader passes the client's bytes on, counting the elements of a
// line that is a batch, and fails the read at the element past maxBatch.
// With whole set the input is one document (an HTTP body), in which a
// newline is a blank.
type batchReader struct {
	whole             bool
	r                 io.Reader
	line              int
	start             bool // only blanks so far on this line
	batch, inStr, esc bool
	depth, elems      int
	err               error
}

func (b *batchReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	for i, c := range p[:n] {
		if b.scan(c) {
			b.err = fmt.Errorf("line %d is a batch of more than %d messages; send one JSON-RPC message per line", b.line, maxBatch)
			return i, nil
		}
	}
	return n, err
}

// batchOver says the HTTP body is a batch of more than maxBatch messages.
func batchOver(body []byte) bool {
	b := batchReader{whole: true, start: true}
	return slices.ContainsFunc(body, b.scan)
}

// scan takes one byte and says whether the batch is over maxBatch.
func (b *batchReader) scan(c byte) bool {
	switch {
	case c == '\n' && !b.whole:
		*b = batchReader{r: b.r, line: b.line + 1, start: true}
	case b.start:
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			b.start, b.batch, b.depth, b.elems = false, c == '[', 1, 1
		}
	case !b.batch:
	case b.inStr:
		switch {
		case b.esc:
			b.esc = false
		case c == '\\':
			b.esc = true
		case c == '"':
			b.inStr = false
		}
	case c == '"':
		b.inStr = true
	case c == '[' || c == '{':
		b.depth++
	case c == ']' || c == '}':
		b.depth--
	case c == ',' && b.depth == 1:
		b.elems++
		return b.elems > maxBatch
	}
	return false
}

// StdioTransport is the stdio transport of s: the end of input waits for
// the calls in flight, each bounded by the call timeout, at most twice that.
func (s *Server) StdioTransport(r io.Reader, w io.Writer) mcp.Transport {
	d := stdioTransport(r, w, 2*cmp.Or(s.opts.CallTimeout, agent.DefaultTimeout), cmp.Or(max(s.opts.MaxQueued, 0), DefaultMaxQueued), s.logPanic)
	d.costFloor = s.opts.CostFloor
	return d
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

type drainTransport struct {
	inner     mcp.Transport
	hold      time.Duration
	maxQueued int     // bytes of requests read and not answered (0 = no bound)
	caught    catcher // records a panic in Read or Write (nil: toStderr(os.Stderr))
	costFloor int64   // costlyMessage's floor (0 = jsoncost.Floor)
}

func (d drainTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := d.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	caught := d.caught
	if caught == nil {
		caught = toStderr(os.Stderr)
	}
	return &drainConn{Connection: c, caught: caught, costFloor: d.costFloor, hold: d.hold, maxQueued: d.maxQueued, pending: map[any]int{}, params: map[any]json.RawMessage{}, idle: make(chan struct{}), closed: make(chan struct{}), freed: make(chan struct{}, 1)}, nil
}

// drainConn counts the requests read and not yet answered.
type drainConn struct {
	mcp.Connection
	caught    catcher
	costFloor int64 // costlyMessage's floor (0 = jsoncost.Floor)
	hold      time.Duration
	read      int // messages read (Read is never called concurrently)
	mu        sync.Mutex
	pending   map[any]int             // the size of each request read and not answered, by id
	params    map[any]json.RawMessage // the params of those of a method paramsShapes knows
	queued    int                     // the sizes in pending, added up
	maxQueued int                     // the most queued may reach (0 = no bound)
	idle      chan struct{}           // closed when pending empties after the end of input
	ended     bool                    // the end of input was read
	closeOnce sync.Once
	closed    chan struct{}
	freed     chan struct{} // a request was answered (maxPending)
}

// maxPending bounds the requests read and not yet answered: the next is
// read only once one is answered, so a client sending requests without
// end (a million tool calls waiting for a slot, each a goroutine and its
// arguments) leaves the rest in the pipe, not in memory.
const maxPending = 1024

// DefaultMaxQueued bounds the bytes of the requests read and not yet
// answered (Options.MaxQueued): each line may hold 16 MiB, so maxPending
// alone let a client park 16 GiB of tool arguments behind the call slots.
// A request past it, with others pending, is answered an error at once
// and dropped; one alone is always read.
const DefaultMaxQueued = 64 << 20

// guard, deferred in Read and Write, turns a panic there into *err, its
// stack recorded (c.caught): the SDK calls them on goroutines of its own,
// outside guardPanics, where a panic (parsing a client's params to word a
// refusal again, say) would end the process and every call in flight.
// The SDK ends the session on the error; the process ends normally.
func (c *drainConn) guard(where string, err *error) {
	if p := recover(); p != nil {
		*err = c.caught(where, "the stdio transport", p)
	}
}

// Read is readMsg, guarded.
func (c *drainConn) Read(ctx context.Context) (msg jsonrpc.Message, err error) {
	defer c.guard("reading a message", &err)
	return c.readMsg(ctx)
}

// Write is writeMsg, guarded.
func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) (err error) {
	defer c.guard("writing a message", &err)
	return c.writeMsg(ctx, msg)
}

func (c *drainConn) readMsg(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.mu.Lock()
		full := len(c.pending) >= maxPending
		c.mu.Unlock()
		if !full {
			break
		}
		select {
		case <-c.freed:
		case <-c.closed:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	msg, err := c.Connection.Read(ctx)
	for err == nil {
		c.read++
		if refused, rerr := c.refuseCostly(ctx, msg); rerr != nil || refused {
			if err = rerr; err == nil {
				msg, err = c.Connection.Read(ctx)
			}
			continue
		}
		req, ok := msg.(*jsonrpc.Request)
		if !ok || !req.ID.IsValid() {
			return msg, nil
		}
		size := len(req.Method) + len(req.Params)
		c.mu.Lock()
		_, dup := c.pending[req.ID.Raw()] // the SDK refuses it, holding nothing
		over := !dup && c.maxQueued > 0 && c.queued > 0 && c.queued+size > c.maxQueued
		if !dup && !over {
			c.pending[req.ID.Raw()] = size
			c.queued += size
			if _, known := paramsShapes[req.Method]; known {
				c.params[req.ID.Raw()] = req.Params
			}
		}
		held := c.queued
		c.mu.Unlock()
		if !over {
			return msg, nil
		}
		if err = c.Connection.Write(ctx, &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("kitsoki mcp serve: request refused: it is %s and the requests not yet answered hold %s, over the %s this server holds at once; send it again once answers have come back",
				human.Size(int64(size)), human.Size(int64(held)), human.Size(int64(c.maxQueued)))}}); err != nil {
			break
		}
		msg, err = c.Connection.Read(ctx)
	}
	if !errors.Is(err, io.EOF) && ctx.Err() == nil {
		err = fmt.Errorf("stdin, after %d messages: %w; an MCP client sends one JSON-RPC 2.0 message per line, each under %s", c.read, err, human.Size(mcp.DefaultMaxLineLength))
	}
	c.mu.Lock()
	c.ended = true
	c.signalIdle()
	c.mu.Unlock()
	t := time.NewTimer(c.hold)
	defer t.Stop()
	select {
	case <-c.idle:
	case <-c.closed:
	case <-ctx.Done():
	case <-t.C:
	}
	return nil, err
}

// refuseCostly answers a request whose params would take over jsoncost's
// limit once read (costlyMessage) with an error, and says it did; a
// notification or a client's answer, which has no answer to carry the
// refusal, ends the input with it.
func (c *drainConn) refuseCostly(ctx context.Context, msg jsonrpc.Message) (bool, error) {
	cerr := costlyMessage(msg, c.costFloor)
	if cerr == nil {
		return false, nil
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.ID.IsValid() {
		return false, fmt.Errorf("message %d: %w", c.read, cerr)
	}
	return true, c.Connection.Write(ctx, &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("kitsoki mcp serve: request refused: %v", cerr)}})
}

func (c *drainConn) writeMsg(ctx context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	ok = ok && resp.ID.IsValid()
	if ok {
		defer c.answered(resp.ID.Raw())
		// The request's bytes are freed before its answer is sent: a client
		// may send the next request as soon as it reads the answer.
		c.mu.Lock()
		if size, held := c.pending[resp.ID.Raw()]; held {
			c.queued -= size
			c.pending[resp.ID.Raw()] = 0
		}
		params := c.params[resp.ID.Raw()]
		c.mu.Unlock()
		msg = rewordParamsError(resp, params)
	}
	return c.Connection.Write(ctx, msg)
}

// answered forgets the request id once its answer is written or failed
// (a panic too: the end of input must not wait for it).
func (c *drainConn) answered(id any) {
	c.mu.Lock()
	delete(c.pending, id) // a duplicate id is answered once
	delete(c.params, id)
	c.signalIdle()
	c.mu.Unlock()
	select { // wake a Read waiting for room (maxPending)
	case c.freed <- struct{}{}:
	default:
	}
}

// signalIdle closes idle once input has ended and nothing is pending
// (c.mu held).
func (c *drainConn) signalIdle() {
	if c.ended && len(c.pending) == 0 {
		select {
		case <-c.idle:
		default:
			close(c.idle)
		}
	}
}

func (c *drainConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Connection.Close()
}
