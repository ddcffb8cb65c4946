package coverage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/engine"
)

// The HTML report marks each line that starts a part reached or not, and
// escapes every piece of story text (source, labels, paths): a story from
// a stranger's pull request must not script the report.
func TestHTMLMarksAndEscapes(t *testing.T) {
	base := t.TempDir()
	src := "app: {id: x}\nstates:\n  a:\n    on_enter:\n      - say: \"<script>alert(1)</script>\"\n"
	if err := os.WriteFile(filepath.Join(base, "app.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &Profile{Files: []*File{
		{Path: "app.yaml", Items: []Item{
			{Kind: engine.ReachState, Line: 3, Col: 3, State: "a", Label: "a", Count: 1},
			{Kind: engine.ReachEffect, Line: 5, Col: 9, State: "a", Label: "say <img src=x onerror=alert(2)>", Count: 0},
			{Kind: engine.ReachArc, Line: 40, Col: 9, State: "a", Label: "on gone → x", Count: 0},
		}},
		{Path: "missing/<b>.yaml", Items: []Item{{Kind: engine.ReachState, Line: 1, Label: "m"}}},
	}}
	out := filepath.Join(t.TempDir(), "report")
	if err := WriteHTMLDir(out, p, HTMLOptions{Base: base}); err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, name := range []string{"index.html", "file1.html", "file2.html"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	page := all.String()
	for _, bad := range []string{"<script>alert", "<img src=x", "<b>.yaml"} {
		if strings.Contains(page, bad) {
			t.Errorf("story text reaches the report unescaped: %q", bad)
		}
	}
	for _, want := range []string{
		`<tr id="L3" class="hit"`, `<tr id="L5" class="miss"`, "&lt;script&gt;alert(1)&lt;/script&gt;",
		"Parts past the end of the file", "line 40: arc on gone → x: 0", // the file changed since the run
		"the source cannot be shown",
		`<a href="file1.html#L3">app.yaml:3</a>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}
