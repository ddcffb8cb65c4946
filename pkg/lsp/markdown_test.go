package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/storytest"
)

// A story's descriptions, names and defaults reach a hover as text: an
// image the editor would fetch on hover, a link, HTML, an entity or a
// backtick closing a code span early all show as the characters they
// are, escaped (the editor renders hovers as Markdown).
func TestHoverEscapesStoryMarkdown(t *testing.T) {
	dir := t.TempDir()
	app := `app: {id: md}
root: idle
world:
  ticket: {type: string, default: "a` + "`" + ` ![w](https://attacker.example/w.png)"}
intents:
  go:
    title: "![t](https://attacker.example/t.png)"
    description: "<img src=https://attacker.example/i.png> &#x202e;"
states:
  idle:
    description: "![x](https://attacker.example/x.png) [run](command:workbench.action.terminal.new)"
    on:
      go: [{target: idle, effects: [{set: {ticket: "{{ world.ticket }}"}}]}]
`
	storytest.WriteFile(t, filepath.Join(dir, "app.yaml"), app)
	c := startInProcess(t, Options{})
	manifest := filepath.Join(dir, "app.yaml")
	text := open(c, manifest)
	hover := func(needle string) string {
		var h protocol.Hover
		c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(manifest)}, Position: posOf(t, text, needle, 1)}}, &h)
		b, _ := json.Marshal(h.Contents)
		var mc protocol.MarkupContent
		_ = json.Unmarshal(b, &mc)
		return mc.Value
	}
	for needle, want := range map[string]string{
		"idle:":        `!\[x\]\(https://attacker.example/x.png\) \[run\]\(command:workbench.action.terminal.new\)`,
		"go:\n":        `!\[t\]\(https://attacker.example/t.png\)`,
		"go:\n    ti":  `\<img src=https://attacker.example/i.png\> \&\#x202e;`,
		"world.ticket": "``a` ![w](https://attacker.example/w.png)``",
	} {
		if h := hover(needle); !strings.Contains(h, want) {
			t.Errorf("hover on %q:\n%s\nwant it to hold, escaped or in one code span:\n%s", needle, h, want)
		}
	}
}

// A world default or values list shows as the author would write it: an
// empty text as "", a map or list as JSON, not Go's map[] and [a b].
func TestMdValue(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{"", "`\"\"`"},
		{"T-1", "`T-1`"},
		{map[string]any{}, "`{}`"},
		{map[string]any{"a": 1}, "`{\"a\":1}`"},
		{[]any{"low", "high"}, "`[\"low\",\"high\"]`"},
		{3, "`3`"},
		{false, "`false`"},
	} {
		if got := mdValue(tc.v); got != tc.want {
			t.Errorf("mdValue(%#v) = %s, want %s", tc.v, got, tc.want)
		}
	}
}
