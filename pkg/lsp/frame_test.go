package lsp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/jsoncost"
	"kitsoki/internal/testing/lsptest"
)

// TestFramingBounds: a client that, after a normal initialize, sends an
// endless header line, endless headers or a huge Content-Length gets the
// session ended with an error naming the message, the header and the
// limit; the server never holds the bytes.
func TestFramingBounds(t *testing.T) {
	t.Parallel() // its own server and temp copy
	cases := map[string]struct {
		send func(w io.Writer) error
		want string
	}{
		"long line": {func(w io.Writer) error {
			if _, err := io.WriteString(w, "Content-Length: 10\r\n"); err != nil {
				return err
			}
			chunk := strings.Repeat("a", 64<<10)
			for range 1 << 10 { // 64 MiB, never a newline
				if _, err := io.WriteString(w, chunk); err != nil {
					return err
				}
			}
			return nil
		}, "header line 2 is over 1024 bytes"},
		"many headers": {func(w io.Writer) error {
			for i := range 1 << 20 {
				if _, err := fmt.Fprintf(w, "X-%d: y\r\n", i); err != nil {
					return err
				}
			}
			return nil
		}, "more than 16 header lines"},
		"huge length": {func(w io.Writer) error {
			_, err := io.WriteString(w, "Content-Length: 99999999999999\r\n\r\n{")
			return err
		}, "Content-Length 99999999999999 is over the limit"},
		"no length": {func(w io.Writer) error {
			_, err := io.WriteString(w, "Content-Type: x\r\n\r\n{}")
			return err
		}, "no Content-Length header"},
		"id out of range": {func(w io.Writer) error {
			body := `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"shutdown"}`
			_, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(body), body)
			return err
		}, "the content is not a JSON-RPC message"},
		"two lengths": {func(w io.Writer) error {
			_, err := io.WriteString(w, "Content-Length: 5\r\nContent-Length: 2\r\n\r\n{}")
			return err
		}, "two Content-Length headers, 5 and 2; send one"},
		"batch": {func(w io.Writer) error {
			// the estimate would refuse it too (as empty values): the
			// batch is refused first, unwalked
			body := "[" + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"shutdown"},`, 2_000), ",") + "]"
			_, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(body), body)
			return err
		}, "the content is a JSON array (a JSON-RPC batch)"},
		"negative id": {func(w io.Writer) error {
			body := `{"jsonrpc":"2.0","id":-1,"method":"shutdown"}`
			_, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(body), body)
			return err
		}, "the id -1 is negative"},
		"too deep": {func(w io.Writer) error {
			body := `{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "}"
			_, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(body), body)
			return err
		}, "the content is not a JSON-RPC message"},
		"empty values": {func(w io.Writer) error {
			// a codeAction whose diagnostic's data (decoded as any)
			// holds 20,000 empty objects: 60 KB, some 3 MB decoded, over
			// the 1 MiB floor here as 2,000,000 pass the product's 256 MiB
			body := `{"jsonrpc":"2.0","id":5,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///x/app.yaml"},` +
				`"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"message":"m","data":[` +
				strings.TrimSuffix(strings.Repeat("{},", 20_000), ",") + `]}]}}}`
			if _, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
				return err
			}
			return w.(io.Closer).Close() // before the bound, Serve then ended at the end of input
		}, "its content would take over 1 MiB once read"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sr, cw := io.Pipe()
			cr, sw := io.Pipe()
			srv := New(Options{})
			// the decode estimate's floor lowered from jsoncost.Floor
			// (TestFramingFloorIsTheDocumented holds the product's)
			srv.costFloor = 1 << 20
			served := make(chan error, 1)
			go func() {
				served <- srv.Serve(context.Background(), pipeRWC{Reader: sr, Writer: sw, closers: []io.Closer{sr, sw}})
			}()
			c := lsptest.Connect(t, pipeRWC{Reader: cr, Writer: cw, closers: []io.Closer{cr, cw}}, t.TempDir())
			defer c.Conn.Close()
			sent := make(chan error, 1)
			go func() { sent <- tc.send(cw) }()
			err := <-served
			// messages 1 and 2 were the client's initialize and initialized
			if !errors.Is(err, errFraming) || !strings.Contains(err.Error(), "message 3: "+tc.want) {
				t.Fatalf("Serve: %v, want %q", err, tc.want)
			}
			if name == "long line" || name == "many headers" {
				// the server stopped reading: the rest cannot be sent
				if err := <-sent; err == nil {
					t.Fatal("the whole flood was read")
				}
			}
		})
	}
}

// TestFramingFloorIsTheDocumented: a server refuses a message estimated to
// take over 12 times its size once decoded, and at least 256 MiB, as
// docs/compat/hardening.md states; TestFramingBounds lowers the floor.
func TestFramingFloorIsTheDocumented(t *testing.T) {
	if jsoncost.Ratio != 12 || jsoncost.Floor != 256<<20 {
		t.Fatalf("jsoncost.Ratio %d, Floor %d; docs/compat/hardening.md says 12 times and 256 MiB", jsoncost.Ratio, jsoncost.Floor)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "compat", "hardening.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), "A client message whose content is estimated to take more than 12 times its size once decoded (at least 256 MiB") {
		t.Fatal("docs/compat/hardening.md no longer states the lsp message bound of 12 times and 256 MiB")
	}
	if s := New(Options{}); s.costFloor != jsoncost.Floor {
		t.Fatalf("New: costFloor %d, want jsoncost.Floor", s.costFloor)
	}
}

// FuzzReadFrame: readFrame, on any bytes a client sends, returns a
// message, a framing error naming the message, or the reader's error, and
// never panics.
func FuzzReadFrame(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 52\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":null}"))
	f.Add([]byte("content-length:1\r\nX: y\r\n\r\n1rest"))
	f.Add([]byte("Content-Length: -1\r\n\r\n"))
	f.Add([]byte("Content-Length: 99999999999999999999\r\n\r\n"))
	f.Add([]byte("no colon\r\n\r\n"))
	f.Add([]byte("Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 3\r\n\r\n [1"))
	f.Add([]byte("Content-Length: 42\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":-0,\"method\":\"x\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		var v any
		err := readFrame(r, &v, 1, jsoncost.Floor)
		if err == nil && v == nil && !bytes.Contains(data, []byte("null")) {
			t.Errorf("no error and no message from %q", data)
		}
		if errors.Is(err, errFraming) && !strings.Contains(err.Error(), "message 1: ") {
			t.Errorf("a framing error that does not name the message: %v", err)
		}
	})
}
