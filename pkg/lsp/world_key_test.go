package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// A world-key typo's diagnostic covers the key alone, so its quick fix
// replaces nmae with name and keeps the filter after it.
func TestWorldKeyFixReplacesTheKeyOnly(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "app.yaml")
	text := "app: {id: wk}\nworld:\n  name: {type: string, default: \"\"}\nroot: a\nstates:\n  a:\n    view: \"{{ world.nmae|upper }}\"\n"
	if err := os.WriteFile(manifest, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startInProcess(t, Options{})
	open(c, manifest)
	p := c.waitUntil(manifest, func(p published) bool { return len(p.Diagnostics) > 0 })
	d := p.Diagnostics[0]
	if d.Code != "world-key" || !strings.Contains(d.Message, "did you mean `name`") {
		t.Fatalf("diagnostics %+v", p.Diagnostics)
	}
	if want := posOf(t, text, "nmae", 0); d.Range.Start != want || d.Range.End.Character != want.Character+4 {
		t.Errorf("range %+v, want the 4 characters of nmae from %+v", d.Range, want)
	}
	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(manifest)},
		Range: d.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d.Proto()}}}, &actions)
	if len(actions) != 1 || actions[0].Edit == nil {
		t.Fatalf("code actions %+v", actions)
	}
	edit := actions[0].Edit.Changes[pathURI(manifest)][0]
	if edit.NewText != "name" || edit.Range != d.Range {
		t.Errorf("edit %+v", edit)
	}
}
