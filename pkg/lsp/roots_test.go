package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/storytest"
)

const canary = "SECRET-CANARY-7f3a9c"

// rootsFixture lays out a workspace holding a story and, beside it
// (outside the workspace), a secret file; it returns the workspace, the
// story's manifest and the secret's path.
func rootsFixture(t *testing.T, manifest string) (ws, app, secret string) {
	t.Helper()
	base := t.TempDir()
	ws = filepath.Join(base, "repo")
	secret = filepath.Join(base, "home", ".ssh", "id_rsa")
	storytest.WriteTree(t, base, map[string]string{
		"home/.ssh/id_rsa": canary + ": hunter2\n",
		"repo/.git/HEAD":   "ref: refs/heads/main\n",
		"repo/app.yaml":    manifest,
	})
	return ws, filepath.Join(ws, "app.yaml"), secret
}

// settle makes every check the server has pending run and publish: a
// definition request flushes the debounced checks and waits for the one
// under way, and the notifications it caused arrive before its answer.
func settle(c *client, path string) {
	var locs []protocol.Location
	c.call("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(path)}, Position: protocol.Position{Line: 0, Character: 0}}}, &locs)
}

func noCanary(t *testing.T, c *client) {
	t.Helper()
	b, err := json.Marshal(c.Everything())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), canary) || strings.Contains(string(b), "hunter2") {
		t.Fatalf("the secret reached the client: %s", b)
	}
}

const plainStory = "app: {id: ws}\nroot: s\nstates:\n  s:\n    terminal: true\n"

// A document outside the workspace roots is never read, checked or
// published for: not on open, change or save.
func TestOutsideDocumentIgnored(t *testing.T) {
	ws, app, secret := rootsFixture(t, plainStory+"statez: {}\n")
	// a story beside the secret, whose unknown key would quote it
	outside := filepath.Join(filepath.Dir(secret), "app.yaml")
	if err := os.WriteFile(outside, []byte(canary+": hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startInProcessRoots(t, Options{}, ws)
	for _, p := range []string{secret, outside} {
		c.Open(p, canary+": hunter2\n")
		c.Change(p, canary+": hunter2\nmore: 1\n", 2)
		c.Notify("textDocument/didSave", protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(p)}})
	}
	open(c, app)
	got := c.waitDiags(app, 1)
	if len(got.Diagnostics) != 1 || got.Diagnostics[0].Code != "unknown-key" {
		t.Fatalf("the story inside is still checked: %+v", got)
	}
	settle(c, app)
	settle(c, secret)
	for _, p := range c.Everything() {
		if p.URI != pathURI(app) {
			t.Fatalf("published for a document outside the workspace: %+v", p)
		}
	}
	noCanary(t, c)
	// hover and completion on it answer nothing
	var h *protocol.Hover
	c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(secret)}, Position: protocol.Position{Line: 0, Character: 2}}}, &h)
	if h != nil {
		t.Fatalf("hover on an outside document: %+v", h)
	}
}

// A server initialised with no root at all serves no document.
func TestNoRootServesNothing(t *testing.T) {
	_, app, _ := rootsFixture(t, plainStory+"statez: {}\n")
	servesNothing(t, startInProcessRoots(t, Options{}), app)
}

// servesNothing opens app on c and finds nothing published for it.
func servesNothing(t *testing.T, c *client, app string) {
	t.Helper()
	open(c, app)
	settle(c, app)
	if ps := c.Everything(); len(ps) != 0 {
		t.Fatalf("published outside the workspace roots: %+v", ps)
	}
}

// --root (Options.Root) wins over the client's folders.
func TestOptionRootWins(t *testing.T) {
	ws, app, _ := rootsFixture(t, plainStory+"statez: {}\n")
	other := t.TempDir()
	c := startInProcessRoots(t, Options{Root: ws}, other)
	open(c, app)
	if got := c.waitDiags(app, 1); len(got.Diagnostics) != 1 {
		t.Fatalf("%+v", got)
	}
	servesNothing(t, startInProcessRoots(t, Options{Root: other}, ws), app)
}

// initializationOptions.root names the root too.
func TestInitializationOptionsRoot(t *testing.T) {
	ws, app, secret := rootsFixture(t, plainStory+"statez: {}\n")
	c := startInProcessRoots(t, Options{})
	var res protocol.InitializeResult
	c.call("initialize", protocol.InitializeParams{InitializationOptions: map[string]any{"root": ws}}, &res)
	open(c, app)
	if got := c.waitDiags(app, 1); len(got.Diagnostics) != 1 {
		t.Fatalf("%+v", got)
	}
	outside := filepath.Join(filepath.Dir(secret), "app.yaml")
	c.Open(outside, canary+": x\n")
	settle(c, app)
	noCanary(t, c)
}

// What an opened story names follows the story's confinement: an include
// of the secret by "../", by an absolute path or through a symlink under
// rooms/ is refused at the key that names it, and the secret appears in no
// diagnostic.
func TestStoryNamesOutsideRefused(t *testing.T) {
	for name, include := range map[string]string{
		"dotdot":   "../home/.ssh/id_rsa",
		"absolute": "ABS",
		"symlink":  "rooms/*.yaml",
	} {
		t.Run(name, func(t *testing.T) {
			ws, app, secret := rootsFixture(t, "")
			if include == "ABS" {
				include = secret
			}
			text := plainStory + "include:\n  - " + include + "\n"
			if err := os.WriteFile(app, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(ws, "rooms"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("../../home/.ssh/id_rsa", filepath.Join(ws, "rooms", "x.yaml")); err != nil {
				t.Fatal(err)
			}
			c := startInProcessRoots(t, Options{}, ws)
			open(c, app)
			got := c.waitDiags(app, 1)
			if len(got.Diagnostics) != 1 || got.Diagnostics[0].Code != "outside-root" || !strings.Contains(got.Diagnostics[0].Message, include) {
				t.Fatalf("%+v", got.Diagnostics)
			}
			if r := got.Diagnostics[0].Range.Start; r.Line != 6 || r.Character != 4 {
				t.Errorf("refusal at %d:%d, want the include entry (7:5)", r.Line+1, r.Character+1)
			}
			settle(c, app)
			noCanary(t, c)
			for _, p := range c.Everything() {
				if p.URI != pathURI(app) {
					t.Errorf("published for %s", p.URI)
				}
			}
		})
	}
}
