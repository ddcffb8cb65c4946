package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
	"kitsoki/pkg/validate"
)

// The published diagnostics are kitsoki validate's, file by file.
func TestDiagnosticsMatchValidate(t *testing.T) {
	for _, corpus := range []string{"conflict-resolve", "fix-tests", "imports_smoke/parent"} {
		src := storytest.Corpus(t, corpus)
		t.Run(corpus, func(t *testing.T) {
			dir := storytest.TempCopy(t, filepath.Dir(src))
			// the copy is its own project (imports_smoke/parent imports a
			// sibling): validate and the server then agree on the root
			if err := os.Mkdir(filepath.Join(dir, ".kitsoki"), 0o755); err != nil {
				t.Fatal(err)
			}
			manifest := filepath.Join(dir, filepath.Base(src), "app.yaml")
			// plant a typo in the buffer only: the disk stays valid
			text, err := os.ReadFile(manifest)
			if err != nil {
				t.Fatal(err)
			}
			c := startInProcess(t, Options{})
			open(c, manifest)
			c.waitDiags(manifest, 1)
			broken := string(text) + "\nstatez: {}\n"
			change(c, manifest, broken, 2)
			got := c.waitDiags(manifest, 2)
			res := validate.Run([]string{manifest}, validate.Options{Story: story.Options{Overlay: map[string][]byte{manifest: []byte(broken)}}, Jobs: 1})
			var want []diag.Diagnostic
			for _, d := range res.Diagnostics {
				if filepath.Clean(d.File) == manifest {
					want = append(want, d)
				}
			}
			if len(want) == 0 {
				t.Fatal("the planted typo gave no diagnostic")
			}
			compareDiags(t, broken, got.Diagnostics, want)
			if got.Version == nil || *got.Version != 2 {
				t.Errorf("publish version %v, want 2", got.Version)
			}
			if disk, _ := os.ReadFile(manifest); string(disk) != string(text) {
				t.Error("the server wrote the file")
			}
		})
	}
}

func compareDiags(t *testing.T, text string, got []wireDiag, want []diag.Diagnostic) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d diagnostics, want %d:\ngot  %v\nwant %v", len(got), len(want), got, want)
	}
	ls := lines(text)
	for i, d := range want {
		g := got[i]
		if g.Message != d.Message || g.Code != d.Rule || g.Source != "kitsoki" {
			t.Errorf("diag %d: %q [%v], want %q [%s]", i, g.Message, g.Code, d.Message, d.Rule)
		}
		wantSev := int(protocol.DiagnosticSeverityError)
		if d.Severity == diag.Warning {
			wantSev = int(protocol.DiagnosticSeverityWarning)
		}
		if g.Severity != wantSev {
			t.Errorf("diag %d: severity %v, want %v", i, g.Severity, wantSev)
		}
		line := int(g.Range.Start.Line) + 1
		col := runeCol(ls[line-1], g.Range.Start.Character)
		if d.Line > 0 && (line != d.Line || col != max(d.Col, 1)) {
			t.Errorf("diag %d at %d:%d, validate says %d:%d", i, line, col, d.Line, d.Col)
		}
	}
}

func TestRoomChangeRechecksStoryAndClears(t *testing.T) {
	dir := storytest.TempCopy(t, "testdata/demo")
	manifest, room := filepath.Join(dir, "app.yaml"), filepath.Join(dir, "rooms", "work.yaml")
	c := startInProcess(t, Options{})
	open(c, manifest)
	first := c.waitDiags(manifest, 1)
	if len(first.Diagnostics) != 1 || first.Diagnostics[0].Code != "unreachable" {
		t.Fatalf("app.yaml diagnostics %+v", first.Diagnostics)
	}
	if d := c.waitDiags(room, 1); len(d.Diagnostics) != 0 {
		t.Fatalf("room should be clean: %+v", d.Diagnostics)
	}
	roomText := open(c, room)
	c.waitDiags(room, 2)
	change(c, room, strings.Replace(roomText, "on_enter:", "on_entr:", 1), 2)
	d := c.waitDiags(room, 3)
	if len(d.Diagnostics) == 0 || !strings.Contains(d.Diagnostics[0].Message, "did you mean `on_enter`") {
		t.Fatalf("room typo: %+v", d.Diagnostics)
	}
	if r := d.Diagnostics[0].Range; r.Start.Line != 5 || r.Start.Character != 8 || r.End.Character != 15 {
		t.Errorf("typo range %+v, want line 5 chars 8-15", r)
	}
	// the fix as a code action
	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(room)},
		Range: d.Diagnostics[0].Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d.Diagnostics[0].Proto()}}}, &actions)
	if len(actions) != 1 || actions[0].Edit == nil || actions[0].Edit.Changes[pathURI(room)][0].NewText != "on_enter" {
		t.Fatalf("code actions %+v", actions)
	}
	change(c, room, roomText, 3)
	if d := c.waitDiags(room, 4); len(d.Diagnostics) != 0 {
		t.Fatalf("fixed room not cleared: %+v", d.Diagnostics)
	}
}

func TestChildChangeRechecksImporter(t *testing.T) {
	dir := storytest.TempCopy(t, "testdata")
	parent, child := filepath.Join(dir, "parent", "app.yaml"), filepath.Join(dir, "child", "app.yaml")
	c := startInProcess(t, Options{})
	open(c, parent)
	c.waitDiags(parent, 1)
	childText := open(c, child)
	change(c, child, strings.Replace(childText, "finished: {}", "finishd: {}", 1), 2)
	c.waitUntil(parent, func(p published) bool {
		for _, x := range p.Diagnostics {
			if strings.Contains(x.Message, `child does not declare an exit named "finished"`) {
				return true
			}
		}
		return false
	})
}

func TestDefinitionHoverCompletionSymbols(t *testing.T) {
	dir := storytest.TempCopy(t, "testdata/demo")
	manifest, room := filepath.Join(dir, "app.yaml"), filepath.Join(dir, "rooms", "work.yaml")
	c := startInProcess(t, Options{})
	appText := open(c, manifest)
	roomText := open(c, room)
	c.waitDiags(room, 1)

	def := func(path, text, needle string, off int) []protocol.Location {
		var locs []protocol.Location
		c.call("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(path)}, Position: posOf(t, text, needle, off)}}, &locs)
		return locs
	}
	at := func(locs []protocol.Location, path string, line int) {
		t.Helper()
		if len(locs) != 1 || locs[0].URI != pathURI(path) || int(locs[0].Range.Start.Line) != line {
			t.Errorf("definition %+v, want %s line %d", locs, path, line)
		}
	}
	at(def(manifest, appText, "work.doing", 2), room, 4)    // target → state in a room file
	at(def(room, roomText, "../checking", 3), room, 16)     // relative target
	at(def(room, roomText, "agent.judge", 1), manifest, 17) // alias → agent_plugins
	at(def(room, roomText, "world.ticket", 7), manifest, 4) // world key in a template
	at(def(room, roomText, "attempts:", 1), manifest, 5)    // bind key → world
	at(def(room, roomText, "finish:", 1), manifest, 11)     // intent → library
	at(def(room, roomText, "prompts/ask.md", 2), filepath.Join(dir, "prompts", "ask.md"), 0)
	at(def(room, roomText, "schemas/verdict.json", 2), filepath.Join(dir, "schemas", "verdict.json"), 0)
	schemaPath := filepath.Join(dir, "schemas", "verdict.json")
	schemaText := open(c, schemaPath)
	at(def(schemaPath, schemaText, "common.json#", 2), filepath.Join(dir, "schemas", "common.json"), 2) // $ref → pointer

	hover := func(path, text, needle string, off int) string {
		var h protocol.Hover
		c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(path)}, Position: posOf(t, text, needle, off)}}, &h)
		b, _ := json.Marshal(h.Contents)
		return string(b)
	}
	for _, tc := range []struct{ path, text, needle, want string }{
		{manifest, appText, "work.doing", "**state** `work.doing`"},
		{room, roomText, "work:", "compound state"},
		{manifest, appText, "idle:", "Waiting for a ticket."},
		{room, roomText, "world.ticket", "default: `T-1`"},
		{manifest, appText, "start:\n        - target", "reason"},
		{room, roomText, "agent.judge", "started on the first call"},
	} {
		if h := hover(tc.path, tc.text, tc.needle, 1); !strings.Contains(h, tc.want) {
			t.Errorf("hover on %q: %s, want %q", tc.needle, h, tc.want)
		}
	}

	complete := func(path, text string, pos protocol.Position) []string {
		var list protocol.CompletionList
		c.call("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(path)}, Position: pos}}, &list)
		var out []string
		for _, it := range list.Items {
			out = append(out, it.Label)
		}
		return out
	}
	edit := func(text, old, repl string) string { return strings.Replace(text, old, repl, 1) }
	endOf := func(text, needle string) protocol.Position { return posOf(t, text, needle, len([]rune(needle))) }
	cases := []struct {
		text, needle string
		want         []string
	}{
		{edit(roomText, "- target: ../checking", "- target: "), "- target: ", []string{"work.checking", "../checking", "idle", "@exit:done"}},
		{edit(roomText, `"{{ world.ticket }}"`, `"{{ world.`), "{{ world.", []string{"ticket", "attempts"}},
		{edit(roomText, "host.agent.decide", "host.agent."), "host.agent.", []string{"decide", "ask"}},
		{edit(roomText, "agent: agent.judge", "agent: "), "agent: ", []string{"agent.judge"}},
		{"# kitsoki:ignore unre\n" + roomText, "# kitsoki:ignore unre", []string{"unreachable"}},
		{"# kitsoki:ignore mcp\n" + roomText, "# kitsoki:ignore mcp", []string{"mcp-tool-name", "flow-unknown-key"}}, // every rule validate reports
	}
	for i, tc := range cases {
		change(c, room, tc.text, int32(10+i))
		got := complete(room, tc.text, endOf(tc.text, tc.needle))
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("completion after %q: %v lacks %q", tc.needle, got, w)
			}
		}
	}
	change(c, room, roomText, 20)

	var syms []protocol.DocumentSymbol
	c.call("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(room)}}, &syms)
	if len(syms) != 1 || syms[0].Name != "work" || len(syms[0].Children) != 2 || syms[0].Children[1].Name != "checking" {
		t.Fatalf("symbols %+v", syms)
	}
}
