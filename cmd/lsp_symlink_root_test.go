package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/lsptest"
	"kitsoki/internal/testing/storytest"
)

// The real binary over stdio, rooted at a workspace folder that is itself a
// symlink, whose repository plants links leading out (a directory link and
// a room file link) next to a home directory holding a secret: no request
// on a document outside (by the link, by "..", by its own path; opened or
// not) and no reference the story makes through the links answers with a
// byte of the secret or a location outside, and nothing is published for
// a document outside.
func TestLSPSymlinkedRootQuotesNothingOutside(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	base := t.TempDir()
	const secret = "LSP-SECRET-CANARY-51b2"
	storytest.WriteTree(t, base, map[string]string{
		"home/.ssh/id_rsa":   secret + ": hunter2\n",
		"home/.ssh/app.yaml": "app: {id: " + secret + "}\nroot: s\nstates:\n  s: {terminal: true}\n" + secret + ": 1\n",
		"real/.git/HEAD":     "ref: refs/heads/main\n",
		"real/app.yaml": "app: {id: ws}\nroot: s\nstates:\n  s:\n    terminal: true\n    view: leak/id_rsa\n" +
			"include:\n  - rooms/*.yaml\n",
	})
	for link, to := range map[string]string{
		"link":              "real",                   // the workspace folder
		"real/leak":         "../home/.ssh",           // a directory leading out
		"real/rooms/x.yaml": "../../home/.ssh/id_rsa", // a room leading out
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(base, link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(to, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	ws := filepath.Join(base, "link")
	app := filepath.Join(ws, "app.yaml")
	srv := startLSP(t, bin, ws)
	c := lsptest.Connect(t, procRWC{ReadCloser: srv.stdout, WriteCloser: srv.stdin})
	text, err := os.ReadFile(app)
	if err != nil {
		t.Fatal(err)
	}
	c.Open(app, string(text))
	got := c.WaitUntil(app, func(p lsptest.Published) bool { return len(p.Diagnostics) > 0 })
	if !strings.Contains(got.Diagnostics[0].Message, "rooms/x.yaml") || got.Diagnostics[0].Code != "outside-root" {
		t.Fatalf("the room leading out is not refused by name: %+v", got.Diagnostics)
	}

	outside := []string{
		filepath.Join(base, "home", ".ssh", "id_rsa"),
		filepath.Join(base, "home", ".ssh", "app.yaml"),
		filepath.Join(ws, "leak", "id_rsa"),
		filepath.Join(ws, "leak", "app.yaml"),
		filepath.Join(ws, "rooms", "x.yaml"),
		ws + "/../home/.ssh/app.yaml",
	}
	var answers []any
	ask := func(path string, line, char uint32) {
		at := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: "file://" + path},
			Position: protocol.Position{Line: line, Character: char}}
		var def, hover, comp, syms, acts any
		c.Call("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: at}, &def)
		c.Call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: at}, &hover)
		c.Call("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: at}, &comp)
		c.Call("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: at.TextDocument}, &syms)
		c.Call("textDocument/codeAction", protocol.CodeActionParams{TextDocument: at.TextDocument,
			Range: protocol.Range{Start: at.Position, End: at.Position}}, &acts)
		answers = append(answers, def, hover, comp, syms, acts)
	}
	for _, p := range outside {
		ask(p, 0, 3) // never opened: answered from disk, if at all
	}
	for _, p := range outside {
		c.Open(p, secret+": hunter2\nstates: {}\n")
		ask(p, 0, 3)
	}
	ask(app, 5, 12) // view: leak/id_rsa, a file through the link leading out
	for _, a := range answers {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), secret) || strings.Contains(string(b), "hunter2") || strings.Contains(string(b), ".ssh") {
			t.Fatalf("an answer reveals what lies outside the workspace: %s", b)
		}
	}
	for _, p := range c.Everything() {
		if p.URI != "file://"+app {
			t.Fatalf("published for a document outside the workspace: %+v", p)
		}
		b, _ := json.Marshal(p)
		if strings.Contains(string(b), secret) || strings.Contains(string(b), "hunter2") {
			t.Fatalf("a diagnostic quotes the secret: %s", b)
		}
	}
	c.Shutdown()
	srv.waitExit(t)
}
