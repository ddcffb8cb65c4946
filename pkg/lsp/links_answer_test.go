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

// linkLayouts are links a hostile repository plants in the demo story,
// each leading out of the workspace (to home/, beside it): name → link
// (under the workspace) → target (under the base directory).
var linkLayouts = []struct{ name, link, target string }{
	{"prompt file", "prompts/ask.md", "home/ask.md"},
	{"schema file", "schemas/verdict.json", "home/verdict.json"},
	{"$ref'd schema", "schemas/common.json", "home/common.json"},
	{"prompts directory", "prompts", "home"},
	{"schemas directory", "schemas", "home"},
	{"manifest above the room's directory", "rooms", "home/rooms"},
}

// TestRoomManifestLinkedOutAnswersAlike: an app.yaml linked out beside a
// room file decided, by whether its target existed, which story the room
// belonged to: manifestFor stat'ed it by its plain path (and the
// directories above the workspace too), so with the target present the
// room's story was the linked app.yaml (outside, never checked: no hover,
// no definition, nothing published on opening the room), and with it
// absent the project's app.yaml. It is now looked for through the
// workspace root, never above it: a link out is no manifest, whatever its
// target.
func TestRoomManifestLinkedOutAnswersAlike(t *testing.T) {
	sameAnswers(t, "rooms/app.yaml", "home/app.yaml")
}

// TestLinkOutAnswersAlikeWhateverItsTarget: for each other link layout
// (a file a story names, the directory holding it, the directory of a
// room), hover and definition on every line naming a file, a $ref or an
// include, completion and document symbols, and what is published, answer
// the same whether the link's target exists or not, and quote nothing of
// it.
func TestLinkOutAnswersAlikeWhateverItsTarget(t *testing.T) {
	for _, l := range linkLayouts {
		t.Run(l.name, func(t *testing.T) { sameAnswers(t, l.link, l.target) })
	}
}

// sameAnswers compares the answers with link's target present and absent.
func sameAnswers(t *testing.T, link, target string) {
	t.Helper()
	present := linkAnswers(t, link, target, true)
	absent := linkAnswers(t, link, target, false)
	if strings.Contains(present, canary) {
		t.Fatalf("an answer quotes the file outside:\n%s", present)
	}
	if present != absent {
		t.Fatalf("the answers tell whether %s exists:\npresent:\n%s\nabsent:\n%s", target, present, absent)
	}
}

// linkAnswers lays out the demo story with link leading to target (made
// when present) and returns every answer and publish, the base directory
// written BASE.
func linkAnswers(t *testing.T, link, target string, present bool) string {
	t.Helper()
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	storytest.CopyTree(t, "testdata/demo", ws)
	storytest.WriteTree(t, base, map[string]string{"ws/.git/HEAD": "ref: refs/heads/main\n"})
	app := filepath.Join(ws, "app.yaml")
	text, err := os.ReadFile(app)
	if err != nil {
		t.Fatal(err)
	}
	// the room by its name: a glob would pick up a link beside it
	if err := os.WriteFile(app, []byte(strings.Replace(string(text), `include: ["rooms/*.yaml"]`, `include: ["rooms/work.yaml"]`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if present {
		story := "app: {id: " + canary + "}\nroot: s\nstates:\n  s: {terminal: true}\n" + canary + ": 1\n"
		storytest.WriteTree(t, base, map[string]string{
			"home/app.yaml":       story,
			"home/ask.md":         canary + "\n",
			"home/verdict.json":   `{"type": "object", "title": "` + canary + `"}`,
			"home/common.json":    `{"$defs": {"action": {"enum": ["` + canary + `"]}}}`,
			"home/rooms/app.yaml": story,
		})
	}
	linkAt := filepath.Join(ws, filepath.FromSlash(link))
	if fi, err := os.Lstat(linkAt); err == nil && fi.IsDir() {
		// a directory of the story becomes the link: its room moves beside
		if err := os.Rename(linkAt, linkAt+".real"); err != nil {
			t.Fatal(err)
		}
		if link == "rooms" {
			if err := os.WriteFile(app, []byte(strings.Replace(string(text), `include: ["rooms/*.yaml"]`, `include: ["rooms.real/work.yaml"]`, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	} else if err := os.Remove(linkAt); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, filepath.FromSlash(target)), linkAt); err != nil {
		t.Fatal(err)
	}
	c := startInProcessRoots(t, Options{Debounce: -1}, ws)
	// the story's files not under the link (the room moved beside it)
	var docs []string
	for _, p := range []string{filepath.Join(ws, "rooms", "work.yaml"), filepath.Join(ws, "rooms.real", "work.yaml"), app, filepath.Join(ws, "schemas", "verdict.json")} {
		if _, err := filepath.Rel(linkAt, p); (p == linkAt || strings.HasPrefix(p, linkAt+string(filepath.Separator))) && err == nil {
			continue
		}
		if link == "rooms" && strings.Contains(p, filepath.Join("rooms", "work.yaml")) {
			continue
		}
		if link != "rooms" && strings.Contains(p, "rooms.real") {
			continue
		}
		docs = append(docs, p)
	}
	var out []any
	// the room first, before its story was ever checked: which story it
	// belongs to is found from the room alone
	for _, p := range docs {
		text := open(c, p)
		settle(c, p)
		id := protocol.TextDocumentIdentifier{URI: pathURI(p)}
		for i, line := range lines(text) {
			if !strings.ContainsAny(line, "/#") {
				continue // a line naming no file, $ref or include
			}
			for _, col := range []int{len(line) - len(strings.TrimLeft(line, " -")), strings.Index(line, ": ") + 3} {
				if col < 0 || col > len(line) {
					continue
				}
				at := protocol.TextDocumentPositionParams{TextDocument: id, Position: protocol.Position{Line: protocol.UInteger(i), Character: protocol.UInteger(col)}}
				var def, hover any
				c.call("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: at}, &def)
				c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: at}, &hover)
				out = append(out, def, hover)
			}
		}
		var comp, syms any
		c.call("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: id, Position: protocol.Position{Line: 2, Character: 0}}}, &comp)
		c.call("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: id}, &syms)
		out = append(out, comp, syms)
	}
	settle(c, app)
	// the last publish of each file: how many checks ran, and in which
	// order they published, is timing
	last := map[string]published{}
	for _, p := range c.Everything() {
		last[string(p.URI)] = p
	}
	out = append(out, last, c.Logged())
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), base, "BASE")
}
