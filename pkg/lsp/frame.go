package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"

	"kitsoki/internal/jsoncost"
)

// The bounds of one message of the LSP base protocol as the server reads
// it: a client that sends an endless header line, endless headers or a
// huge Content-Length is refused before its bytes are held.
const (
	// maxHeaderLine bounds one header line ("Content-Length: N\r\n";
	// Content-Type with its charset is the longest a client sends).
	maxHeaderLine = 1 << 10
	// maxHeaders bounds the header lines of one message.
	maxHeaders = 16
	// maxBody bounds a message's content: room for a whole story file
	// (maxFile) written as a JSON string, every byte escaped twice over.
	maxBody = 2*maxFile + 1<<20
)

// errFraming marks a message the base protocol cannot read.
var errFraming = errors.New("the client's message does not follow the LSP base protocol")

// frameCodec reads and writes the LSP base protocol's framing
// (Content-Length headers, then JSON) within the bounds above; the first
// framing error is kept for Serve to return.
type frameCodec struct {
	mu  sync.Mutex
	n   int // messages read
	err error
	// floor is jsoncost.Floor, which tests lower (Server.costFloor).
	floor int64
}

func (c *frameCodec) WriteObject(w io.Writer, obj any) error {
	return jsonrpc2.VSCodeObjectCodec{}.WriteObject(w, obj)
}

func (c *frameCodec) ReadObject(r *bufio.Reader, v any) error {
	c.mu.Lock()
	c.n++
	n := c.n
	c.mu.Unlock()
	err := readFrame(r, v, n, c.floor)
	if errors.Is(err, errFraming) {
		c.mu.Lock()
		if c.err == nil {
			c.err = err
		}
		c.mu.Unlock()
	}
	return err
}

// framingErr is the framing error Serve returns (nil: none).
func (c *frameCodec) framingErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// readFrame reads message n: its headers, then the content it decodes into
// v, refused when it would take over jsoncost.Over's limit once decoded, with
// floor for jsoncost.Floor.
func readFrame(r *bufio.Reader, v any, n int, floor int64) error {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%w: message %d: %s", errFraming, n, fmt.Sprintf(format, a...))
	}
	length := -1
	for i := 1; ; i++ {
		if i > maxHeaders+1 {
			return fail("more than %d header lines; send Content-Length: N and an empty line before the content", maxHeaders)
		}
		line, err := readHeaderLine(r)
		if errors.Is(err, errLongLine) {
			return fail("header line %d is over %d bytes; a header is one \"Name: value\" line ending in \\r\\n", i, maxHeaderLine)
		}
		if err != nil {
			return err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return fail("header line %d %q is not \"Name: value\"", i, line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			l, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || l < 0 {
				return fail("Content-Length %q is not a byte count", strings.TrimSpace(value))
			}
			if l > maxBody {
				return fail("Content-Length %d is over the limit of %d bytes; send less in one message", l, maxBody)
			}
			if length >= 0 && int(l) != length {
				return fail("two Content-Length headers, %d and %d; send one", length, l)
			}
			length = int(l)
		}
	}
	if length < 0 {
		return fail("no Content-Length header; each message starts with Content-Length: N")
	}
	// read as the bytes come, not into a buffer of the announced length
	var body bytes.Buffer
	if _, err := io.Copy(&body, io.LimitReader(r, int64(length))); err != nil {
		return err
	}
	if body.Len() < length {
		return io.ErrUnexpectedEOF
	}
	if err := checkEnvelope(body.Bytes()); err != "" {
		return fail("%s", err)
	}
	// The handlers decode values of any type (initializationOptions, a
	// diagnostic's data): a message of millions of empty {} is refused first.
	if limit, over := jsoncost.Over(body.Bytes(), floor); over {
		return fail("its content would take over %d MiB once read (%d bytes of millions of empty values); send fewer objects and arrays in one message", limit>>20, body.Len())
	}
	if err := json.Unmarshal(body.Bytes(), v); err != nil {
		return fail("the content is not a JSON-RPC message the server can read (%v); send one JSON object whose id is an integer or a string", err)
	}
	return nil
}

// checkEnvelope refuses, before the content is decoded, what the JSON-RPC
// layer would misread: a batch (an array: LSP sends one object per
// message, and an array of a million requests was walked whole before its
// refusal named empty values) and a negative id (read as the id plus 2^64,
// so the answer went to an id the client never sent). "" is fine.
func checkEnvelope(body []byte) string {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return "the content is a JSON array (a JSON-RPC batch); the LSP base protocol sends one JSON object per message"
	}
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &head) == nil && len(head.ID) > 0 && head.ID[0] == '-' {
		return fmt.Sprintf("the id %.40s is negative; send an id from 0 up, or a string", head.ID)
	}
	return ""
}

var errLongLine = errors.New("header line too long")

// readHeaderLine reads one line of at most maxHeaderLine bytes.
func readHeaderLine(r *bufio.Reader) (string, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > maxHeaderLine {
			return "", errLongLine
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return "", err
		}
		return string(line), nil
	}
}
