package lsp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/lsptest"
	"kitsoki/internal/testing/storytest"
)

// serverFixture is a workspace holding the demo, parent and child stories,
// and beside it (outside the workspace) files holding the canary: a story,
// a YAML file, a schema, a prompt and coverage profiles. Links inside the
// workspace lead out to them: a room the demo's include glob takes, a
// schema, a prompt, a folder, the child's coverage profile and the
// parent's .kitsoki/.
type serverFixture struct {
	ws, out string
	docs    []string // the documents the fuzz program names
	// outFiles are the files outside the workspace (readOutside)
	outFiles []string
	disk     map[string]string
	bytes    int // of every file the server may read
}

func newServerFixture(t testing.TB) *serverFixture {
	base := t.TempDir()
	fx := &serverFixture{ws: filepath.Join(base, "ws"), out: filepath.Join(base, "outside"), disk: map[string]string{}}
	for _, d := range []string{"demo", "parent", "child"} {
		storytest.CopyTree(t, filepath.Join("testdata", d), filepath.Join(fx.ws, d))
	}
	storytest.WriteTree(t, base, map[string]string{
		"ws/.git/HEAD":              "ref: refs/heads/main\n",
		"outside/app.yaml":          "app: {id: " + canary + "}\nroot: s\nstates:\n  s:\n    terminal: true\n" + canary + ": hunter2\n",
		"outside/secret.yaml":       "states:\n  " + canary + ":\n    terminal: true\nhunter2: 1\n",
		"outside/secret.json":       `{"type": "object", "required": ["` + canary + `"], "$defs": {"hunter2": {}}}`,
		"outside/prompt.md":         canary + " hunter2\n",
		"outside/coverage.json":     `{"version": 1, "` + canary + `": "hunter2"}`,
		"outside/dot/coverage.json": `{"version": 1, "` + canary + `": "hunter2"}`,
	})
	for link, target := range map[string]string{
		"demo/rooms/leak.yaml":   filepath.Join(fx.out, "secret.yaml"),
		"demo/schemas/leak.json": filepath.Join(fx.out, "secret.json"),
		"demo/prompts/leak.md":   filepath.Join(fx.out, "prompt.md"),
		"away":                   fx.out,
		// coverage profiles beside a story: one a link, one in a linked .kitsoki/
		"child/.kitsoki/coverage.json": filepath.Join(fx.out, "coverage.json"),
		"parent/.kitsoki":              filepath.Join(fx.out, "dot"),
	} {
		_ = os.MkdirAll(filepath.Dir(filepath.Join(fx.ws, filepath.FromSlash(link))), 0o755)
		// where links cannot be made (Windows without the right), the
		// program runs without them
		_ = os.Symlink(target, filepath.Join(fx.ws, filepath.FromSlash(link)))
	}
	for _, rel := range []string{"demo/app.yaml", "demo/rooms/work.yaml", "demo/rooms/new.yaml", "demo/schemas/verdict.json",
		"demo/rooms/leak.yaml", "parent/app.yaml", "child/app.yaml", "away/app.yaml", "../outside/app.yaml", "../outside/secret.yaml"} {
		fx.docs = append(fx.docs, filepath.Join(fx.ws, filepath.FromSlash(rel)))
	}
	_ = filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			fx.disk[p] = string(b)
			fx.bytes += len(b)
		}
		return nil
	})
	for _, p := range fx.docs { // what the client sends as the file's text: what its editor shows
		if b, err := os.ReadFile(p); err == nil {
			fx.disk[p] = string(b)
		}
	}
	// A read of a file outside sets its access time again (relatime does
	// while it is older than the change time): readOutside tells.
	for _, name := range []string{"app.yaml", "secret.yaml", "secret.json", "prompt.md", "coverage.json", "dot/coverage.json"} {
		p := filepath.Join(fx.out, name)
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		fx.outFiles = append(fx.outFiles, p)
		if err := os.Chtimes(p, untouched, fi.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	return fx
}

// untouched is the access time of the files outside the workspace until
// something reads them.
var untouched = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// readOutside is a file outside the workspace read since the fixture was
// made ("" none; always "" where the file system keeps no access times).
func (fx *serverFixture) readOutside(t *testing.T) string {
	for _, p := range fx.outFiles {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if at, ok := accessTime(fi); ok && !at.Equal(untouched) {
			return p
		}
	}
	return ""
}

// expand puts the fixture's absolute folders in place of $WS and $OUT.
func (fx *serverFixture) expand(s string) string {
	return strings.NewReplacer("$WS", filepath.ToSlash(fx.ws), "$OUT", filepath.ToSlash(fx.out)).Replace(s)
}

// tapRWC is the server's end of the pipes; what the server writes is
// copied to out.
type tapRWC struct {
	pipeRWC
	out *storytest.SyncBuffer
}

func (t tapRWC) Write(p []byte) (int, error) {
	_, _ = t.out.Write(p)
	return t.pipeRWC.Write(p)
}

// FuzzServer drives a real Server over its JSON-RPC framing with a program
// of didOpen, didChange (whole and ranged), didSave, didClose, hover,
// definition, completion, documentSymbol and codeAction on documents of
// the fixture, in and out of the workspace, whose texts (the fuzzed one,
// the file's own, or both) name includes, imports, schemas and prompts in
// the workspace, out of it, and through links leading out. Every request
// is answered (each waits for its answer, bounded by lsptest.Wait); no
// panic, caught by the server or not; no file outside the workspace is read (its access time stays, on
// Linux) and nothing the server writes holds their canary; nothing is
// published for, and no definition leads to, a file outside it; and every
// message the server writes is within maxServerMessage of what it was
// sent.
func FuzzServer(f *testing.F) {
	fx := newServerFixture(f)
	for _, s := range []struct {
		text string
		prog []byte
	}{
		{"", []byte{0, 0, 1, 0, 5, 0, 17, 12, 6, 1, 12, 14, 7, 1, 13, 12, 8, 0, 0, 0, 1}}, // odd: debounced
		{"include:\n  - ../../outside/secret.yaml\n  - $OUT/secret.yaml\n  - rooms/leak.yaml\n", []byte{0, 0, 2, 0, 6, 0, 3, 6, 1, 0, 0, 0, 9, 0, 0, 0}},
		{"imports:\n  sub:\n    source: $OUT\n  away:\n    source: ../away\n", []byte{0, 5, 2, 0, 6, 5, 6, 14, 5, 5, 6, 4, 3, 5, 0, 0}},
		{"      schema: schemas/leak.json\n      prompt: prompts/leak.md\n      other: $OUT/secret.json\n", []byte{0, 1, 2, 0, 6, 1, 7, 16, 5, 1, 7, 16, 2, 1, 3, 2, 7, 1, 8, 4, 1}},
		{"states: {x: {on: {go: [{target: ", []byte{0, 7, 1, 0, 0, 8, 1, 0, 0, 9, 0, 0, 1, 0, 0, 0, 7, 0, 3, 30, 6, 7, 0, 0}},
		{"$ref: '../../outside/secret.json#/$defs/hunter2'", []byte{0, 3, 0, 0, 6, 3, 0, 8, 2, 3, 0, 0, 4, 3, 0, 0, 3, 4, 0, 0}},
		{"", []byte{0, 5, 1, 0, 0, 6, 1, 0, 8, 6, 0, 0, 3, 5, 0, 0, 4, 6, 0, 0, 8, 5, 0, 0}}, // parent and child, their profiles
		{"é\r\n\t{{ world.", []byte{0, 2, 0, 0, 2, 2, 255, 255, 7, 2, 0, 200, 1, 2, 3, 0, 4, 2, 0, 0}},
	} {
		f.Add(s.text, s.prog)
	}
	f.Fuzz(func(t *testing.T, text string, prog []byte) {
		if strings.Contains(text, "CANARY") || strings.Contains(text, "hunter2") {
			return // the client may send its own secret; the canary is the workspace's neighbour's
		}
		text = fx.expand(text)
		runServerProgram(t, fx, text, prog)
	})
}

// maxServerMessage bounds one message the server writes, given the bytes
// of the texts it was sent: a message carries at most a few views of them
// (findings quoting keys, symbols, completions) and of the files it reads.
func maxServerMessage(fx *serverFixture, sent int) int { return 1<<20 + 64*(sent+fx.bytes) }

func runServerProgram(t *testing.T, fx *serverFixture, text string, prog []byte) {
	// an odd program's edits wait out a debounce: checks then start from
	// timers, and a request flushes them
	var debounce time.Duration
	if len(prog)%2 == 1 {
		debounce = time.Millisecond
	}
	caught := &storytest.SyncBuffer{} // a panic the server caught: the target fails on it
	srv := New(Options{Debounce: debounce, Stderr: caught})
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	wrote := &storytest.SyncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ctx, tapRWC{pipeRWC{Reader: sr, Writer: sw, closers: []io.Closer{sr, sw}}, wrote})
	}()
	c := lsptest.Connect(t, pipeRWC{Reader: cr, Writer: cw, closers: []io.Closer{cr, cw}}, fx.ws)
	defer func() {
		_ = c.Conn.Close()
		cancel()
		<-done
	}()
	call := func(method string, params, result any) {
		rctx, stop := context.WithTimeout(context.Background(), lsptest.Wait)
		defer stop()
		if err := c.Conn.Call(rctx, method, params, result); rctx.Err() != nil {
			t.Fatalf("%s: no answer: %v", method, err)
		}
	}
	sent, version := 0, int32(1)
	pos := func(a, b byte) protocol.Position {
		if a == 255 { // past any line
			return protocol.Position{Line: 1 << 31, Character: protocol.UInteger(b) << 24}
		}
		return protocol.Position{Line: protocol.UInteger(a % 24), Character: protocol.UInteger(b)}
	}
	for i := 0; i+3 < len(prog) && i < 4*64; i += 4 {
		op, doc, a, b := prog[i]%10, fx.docs[int(prog[i+1])%len(fx.docs)], prog[i+2], prog[i+3]
		id := protocol.TextDocumentIdentifier{URI: pathURI(doc)}
		at := protocol.TextDocumentPositionParams{TextDocument: id, Position: pos(a, b)}
		body := []string{text, fx.disk[doc], fx.disk[doc] + text, text + fx.disk[doc]}[a%4]
		version++
		switch op {
		case 0:
			sent += len(body)
			c.Notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: id.URI, LanguageID: "yaml", Version: version, Text: body}})
		case 1:
			sent += len(body)
			c.Change(doc, body, version)
		case 2:
			sent += len(text)
			r := protocol.Range{Start: pos(a>>2, b>>4), End: pos(a>>2+b&3, b)}
			c.Notify("textDocument/didChange", protocol.DidChangeTextDocumentParams{
				TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: id, Version: version},
				ContentChanges: []any{protocol.TextDocumentContentChangeEvent{Range: &r, Text: text}}})
		case 3:
			c.Notify("textDocument/didSave", protocol.DidSaveTextDocumentParams{TextDocument: id})
		case 4:
			c.Notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: id})
		case 5:
			var h json.RawMessage
			call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: at}, &h)
		case 6:
			var locs []protocol.Location
			call("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: at}, &locs)
			for _, l := range locs {
				if !fx.insideWS(t, l.URI) {
					t.Fatalf("definition at %s %+v leads out of the workspace: %s", doc, at.Position, l.URI)
				}
			}
		case 7:
			var list json.RawMessage
			call("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: at}, &list)
		case 8:
			var syms json.RawMessage
			call("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: id}, &syms)
		case 9:
			var acts json.RawMessage
			call("textDocument/codeAction", protocol.CodeActionParams{TextDocument: id, Range: protocol.Range{Start: at.Position, End: at.Position}}, &acts)
		}
	}
	// documentSymbol runs every check queued and waits for the one under
	// way: what they publish is written before its answer
	var syms json.RawMessage
	call("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(fx.docs[0])}}, &syms)
	var r any
	call("shutdown", nil, &r)
	if p := caught.String(); p != "" {
		t.Fatalf("the server caught a panic:\n%s", p)
	}
	if p := fx.readOutside(t); p != "" {
		t.Fatalf("the server read %s, outside the workspace", p)
	}
	for _, p := range c.Everything() {
		if !fx.insideWS(t, p.URI) {
			t.Fatalf("published for %s, outside the workspace", p.URI)
		}
	}
	out := wrote.String()
	if i := strings.Index(out, canary); i >= 0 {
		t.Fatalf("the server wrote what lies outside the workspace: …%s…", out[max(0, i-300):min(len(out), i+100)])
	}
	limit := maxServerMessage(fx, sent)
	for rest := out; rest != ""; {
		head, body, ok := strings.Cut(rest, "\r\n\r\n")
		n, err := strconv.Atoi(strings.TrimPrefix(head, "Content-Length: "))
		if !ok || err != nil || n > len(body) {
			t.Fatalf("the server wrote a message the base protocol cannot read: %.200q", rest)
		}
		if n > limit {
			t.Fatalf("a message of %d bytes, over %d for the %d bytes sent: %.300s", n, limit, sent, body)
		}
		rest = body[n:]
	}
}

// insideWS says the file uri names is in the workspace, through its links.
func (fx *serverFixture) insideWS(t *testing.T, uri string) bool {
	p, err := uriPath(uri)
	if err != nil {
		t.Fatalf("%q: %v", uri, err)
	}
	ws, err := filepath.EvalSymlinks(fx.ws)
	if err != nil {
		t.Fatal(err)
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	} else if real, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		p = filepath.Join(real, filepath.Base(p))
	}
	rel, err := filepath.Rel(ws, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
