package mcpserve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"kitsoki/internal/testing/gotype"
	"kitsoki/internal/testing/storytest"
)

// fuzzToken is the bearer token of FuzzHTTPHandler's guarded handler.
const fuzzToken = "s3cret"

// fillReader gives n bytes of fill, counting how many were read.
type fillReader struct {
	left int64
	read *int64
}

func (r *fillReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), r.left))
	for i := range p[:n] {
		p[i] = ' '
	}
	r.left -= int64(n)
	*r.read += int64(n)
	return n, nil
}

// countReader counts the bytes read from r.
type countReader struct {
	r    io.Reader
	read *int64
}

func (c countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.read += int64(n)
	return n, err
}

// FuzzHTTPHandler drives the real HTTP handler of kitsoki mcp serve (the
// bearer check, the body limit and batch bound, the session cap, the
// SDK's streamable transport, the story's tools) with one request that
// net/http reads from fuzzed bytes, its body padded by pad blanks (a body
// over MaxRequestBody once pad is large). Never a panic (one the server
// caught and logged counts) or a hang; no
// more than MaxRequestBody+1 bytes of a body are read, and a body over it
// is answered 413; an HTTP error is one line of text that names no Go
// type, and a body that is no JSON-RPC message is refused naming the
// place (never in the SDK's words, malformed payload); a JSON-RPC error
// in an event stream is one line that names no Go type.
func FuzzHTTPHandler(f *testing.F) {
	_, dir := writeStory(f, storyYAML(upstream(f)))
	var clock atomic.Int64          // each request an hour on: every session is idle
	logs := &storytest.SyncBuffer{} // a panic the server caught is logged here: the target fails on it
	s, err := New(Options{StoryPath: dir, Now: func() time.Time { return time.Unix(clock.Add(3600), 0) }, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = s.Close() })
	open, guarded := s.HTTPHandler(""), s.HTTPHandler(fuzzToken)

	post := func(body string, extra ...string) []byte {
		h := "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n" + strings.Join(extra, "")
		return []byte(h + "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}`
	f.Add(post(initialize), uint32(0), false)
	f.Add(post(initialize, "Authorization: Bearer "+fuzzToken+"\r\n"), uint32(0), true)
	f.Add(post(initialize), uint32(0), true)
	f.Add(post(`[`+initialize+`,{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`), uint32(0), false)
	f.Add(post(`{"jsonrpc":"2.0","id":{},"method":1}`), uint32(0), false)
	f.Add(post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":[1],"capabilities":"x"}}`), uint32(0), false)
	f.Add(post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"kitsoki_remote_ask","arguments":{"prompt":1}}}`, "Mcp-Session-Id: nope\r\n"), uint32(0), false)
	f.Add(post(`{"jsonrpc`), uint32(0), false)
	f.Add(post(initialize), uint32(MaxRequestBody), false)
	f.Add([]byte("POST / HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n0\r\n\r\n"), uint32(0), false)
	f.Add([]byte("GET / HTTP/1.1\r\nHost: h\r\nAccept: text/event-stream\r\n\r\n"), uint32(0), false)
	f.Add([]byte("DELETE / HTTP/1.1\r\nHost: h\r\nMcp-Session-Id: x\r\n\r\n"), uint32(0), false)
	f.Add([]byte("PUT / HTTP/1.1\r\nHost: h\r\n\r\n"), uint32(0), false)
	f.Fuzz(func(t *testing.T, raw []byte, pad uint32, withToken bool) {
		r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
		if err != nil {
			return // net/http answers it 400 itself
		}
		// the body as sent: a request cut short is one the server waits for
		// (TestHTTPSlowBodyIsCut), not one to pad
		sent, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		var read int64
		fill := int64(pad % (2 * MaxRequestBody))
		if fill > 0 {
			r.Body = io.NopCloser(io.MultiReader(countReader{bytes.NewReader(sent), &read}, &fillReader{left: fill, read: &read}))
			r.ContentLength = -1
		} else if r.Body != http.NoBody {
			r.Body = io.NopCloser(countReader{bytes.NewReader(sent), &read})
		}
		h := open
		if withToken {
			h = guarded
		}
		w := httptest.NewRecorder()
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		defer cancel()
		done := make(chan struct{})
		go func() {
			defer close(done)
			h.ServeHTTP(w, r.WithContext(ctx))
		}()
		select {
		case <-done:
		case <-time.After(hangGuard):
			t.Fatalf("%q: no answer within %s", raw, hangGuard)
		}
		if l := logs.String(); strings.Contains(l, "panicked") {
			t.Fatalf("%q: the server caught a panic:\n%s", raw, l)
		}
		if read > MaxRequestBody+1 {
			t.Fatalf("%q+%d: read %d bytes of the body, over %d", raw, pad, read, MaxRequestBody+1)
		}
		if fill > MaxRequestBody && w.Code != http.StatusRequestEntityTooLarge && w.Code != http.StatusUnauthorized {
			t.Fatalf("%q+%d: a body over %d answered %d", raw, pad, MaxRequestBody, w.Code)
		}
		body := w.Body.String()
		if w.Code == http.StatusBadRequest && strings.HasPrefix(body, sdkMalformed) {
			t.Fatalf("%q: the SDK's refusal %q passed on as written", raw, body)
		}
		for _, line := range strings.Split(body, "\n") {
			if msg, ok := eventError(line); ok {
				if n := gotype.Named(msg, raw); n != "" || strings.ContainsAny(msg, "\r\n") {
					t.Fatalf("%q: a JSON-RPC error %q names a Go type (%s) or runs over one line", raw, msg, n)
				}
			}
		}
		if w.Code >= 400 {
			line := strings.TrimSuffix(body, "\n")
			if line == "" || strings.ContainsAny(line, "\r\n") {
				t.Fatalf("%q: %d answered %q, not one line", raw, w.Code, body)
			}
			if n := gotype.Named(line, raw); n != "" {
				t.Fatalf("%q: %d answered %q, naming a Go type (%s)", raw, w.Code, body, n)
			}
		}
	})
}

// eventError returns the message of the JSON-RPC error an event stream's
// data line holds.
func eventError(line string) (string, bool) {
	data, ok := strings.CutPrefix(line, "data: ")
	if !ok {
		return "", false
	}
	var m struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(data), &m) != nil || m.Error == nil {
		return "", false
	}
	return m.Error.Message, true
}
