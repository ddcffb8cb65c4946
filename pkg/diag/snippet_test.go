package diag

import (
	"bytes"
	"strings"
	"testing"
)

// A quoted source line is bounded and free of control characters, and the
// caret still points at the column.
func TestHumanSnippetHostileLines(t *testing.T) {
	long := strings.Repeat("a", 5000) + "X" + strings.Repeat("b", 5000)
	src := map[string][]byte{
		"long.yaml": []byte("k: v\n" + long + "\n"),
		"ctl.yaml":  []byte("k: \x1b]0;pwned\x07 \u0085end \u202eevil\u2066 \u2028x\n"),
	}
	ds := []Diagnostic{
		{File: "long.yaml", Line: 2, Col: 5001, Severity: Error, Rule: "r", Message: "m"},
		{File: "ctl.yaml", Line: 1, Col: 4, Severity: Error, Rule: "r", Message: "m"},
	}
	var b bytes.Buffer
	if err := WriteHuman(&b, ds, HumanOptions{Snippet: true, Source: func(f string) ([]byte, bool) { d, ok := src[f]; return d, ok }}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	// lines: header, source, caret for each diagnostic.
	srcLine, caret := lines[1], lines[2]
	if n := len([]rune(srcLine)); n > snippetWidth+20 {
		t.Fatalf("source line of %d runes quoted", n)
	}
	if !strings.Contains(srcLine, "…") || strings.Count(srcLine, "X") != 1 {
		t.Fatalf("window lacks the column or the cut marks: %q", srcLine)
	}
	at := []rune(caret)
	line := []rune(srcLine)
	ci := strings.IndexRune(caret, '^')
	if ci < 0 || len(at) == 0 {
		t.Fatalf("no caret: %q", caret)
	}
	// Both lines share the "%5d | " / "      | " prefix of 8 runes.
	pos := len([]rune(caret[:ci]))
	if pos >= len(line) || line[pos] != 'X' {
		t.Fatalf("caret at %d does not point at X:\n%s\n%s", pos, srcLine, caret)
	}
	if strings.ContainsAny(lines[4], "\x1b\x07\u0085\u202e\u2066\u2028") {
		t.Fatalf("control characters quoted raw: %q", lines[4])
	}
}

// Messages quoting story text escape its control characters in the human
// and GitHub formats (JSON and SARIF escape them by encoding).
func TestMessagesEscapeControlCharacters(t *testing.T) {
	ds := []Diagnostic{{File: "a\x1b.yaml", Line: 1, Col: 1, Severity: Error, Rule: "r", Message: "add id: \x1b]0;x\x07 here"}}
	var h, g bytes.Buffer
	if err := WriteHuman(&h, ds, HumanOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteGitHub(&g, ds); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"human": h.String(), "github": g.String()} {
		if strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `add id: \x1b]0;x\x07 here`) || !strings.Contains(out, `a\x1b.yaml`) {
			t.Errorf("%s: %q", name, out)
		}
	}
}

// The caret counts display cells: an emoji or a CJK character before the
// column takes two, a combining mark none.
func TestCaretCountsDisplayCells(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"say: \"🎉 {{ x ? y : z }}\"", "say: \"🎉 {{ x "},
		{"say: \"日本 {{ x ? y : z }}\"", "say: \"日本 {{ x "},
		{"say: \"é {{ x ? y : z }}\"", "say: \"é {{ x "}, // e + combining acute
	} {
		r := []rune(tc.line)
		col := len([]rune(tc.want)) + 1 // the '?'
		ds := []Diagnostic{{File: "f", Line: 1, Col: col, Severity: Error, Rule: "r", Message: "m"}}
		var b bytes.Buffer
		if err := WriteHuman(&b, ds, HumanOptions{Snippet: true, Source: func(string) ([]byte, bool) { return []byte(tc.line + "\n"), true }}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(b.String(), "\n")
		caret := strings.TrimPrefix(lines[2], "      | ")
		if r[col-1] != '?' {
			t.Fatalf("test column wrong: %q", string(r[col-1]))
		}
		if got, want := len(caret)-1, cells([]rune(tc.want)); got != want || strings.TrimSpace(caret) != "^" {
			t.Errorf("%q: caret at cell %d, want %d:\n%s", tc.line, got, want, b.String())
		}
	}
	if cells([]rune("🎉")) != 2 || cells([]rune("日")) != 2 || cells([]rune("e\u0301")) != 1 || cells([]rune("a")) != 1 {
		t.Fatal("cell widths")
	}
}
