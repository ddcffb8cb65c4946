package graph

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// nasty are texts a story may hold in names, guards, targets and titles
// that either format could read as syntax.
var nasty = []string{
	`world.route == "a|b" && world.count > 0`,
	`a\nb \l \N \" \\ end`,
	"line one\nline two\r\nthree\u2028four\x01five",
	`#quot; #35; &amp; <b>bold</b> ; %% comment`,
	"`markdown` **bold** :::cls --> x ==> y -.-> z",
	`{{ world.x ? 'a' : "b" }} {% if x %}[y]{% endif %}`,
	"end subgraph graph digraph node edge strict style class click",
	"ünïcødé 日本語 emoji 🎉 \u200b zero width",
	strings.Repeat("averyveryverylongwordwithoutanyspaces", 4),
	"",
}

// escapeDrawing is a hand-built graph whose every label is nasty: the
// real dot and Mermaid's parser must accept it.
func escapeDrawing(t *testing.T) drawing {
	g := &Graph{Title: strings.Join(nasty, " | ")}
	cl := &Node{ID: "s_cluster", Path: "cluster", Label: nasty[3], Kind: KindParallel}
	g.Top = append(g.Top, cl)
	var prev *Node
	for i, s := range nasty {
		n := &Node{ID: "s_n" + strconv.Itoa(i), Path: s, Label: s, Kind: KindState, Parent: cl, Terminal: i%3 == 0}
		cl.Children = append(cl.Children, n)
		if prev != nil {
			g.Edges = append(g.Edges, &Edge{Kind: EdgeKind(i % 5), Intent: s, Guard: s, After: s, Exit: s, tail: prev, head: n})
		}
		prev = n
	}
	for i, k := range []NodeKind{KindExit, KindDynamic, KindMissing, KindStub, KindCollapsed} {
		n := &Node{ID: "x_" + strconv.Itoa(i), Path: nasty[i], Label: nasty[i], Kind: k, States: []string{"a", "b"}, Source: nasty[i+1]}
		g.Top = append(g.Top, n)
		g.Edges = append(g.Edges, &Edge{Kind: EdgeArc, Intent: nasty[i], Guard: nasty[i+2], tail: cl, head: n})
	}
	g.Start = cl
	return draw(t, "escape", g, Options{})
}

func TestEscapedLabelsKeepTheirText(t *testing.T) {
	d := escapeDrawing(t)
	// the guard with a pipe, quotes and && reaches both formats whole
	if !strings.Contains(d.dot, `world.route == \"a|b\" && world.count >`) {
		t.Errorf("DOT lacks the escaped guard:\n%s", d.dot)
	}
	if !strings.Contains(d.mmd, `world.route == #34;a#124;b#34; #38;#38; world.count #62; 0`) {
		t.Errorf("Mermaid lacks the encoded guard:\n%s", d.mmd)
	}
	for _, s := range []string{"\x01", "\u2028", "\r"} {
		if strings.Contains(d.dot, s) || strings.Contains(d.mmd, s) {
			t.Errorf("a control character %q reached the output", s)
		}
	}
}

var entityRE = regexp.MustCompile(`#(\d+);`)

// dotUnquote reads a DOT string the way Graphviz reads a label: \" is a
// quote, \\ a backslash, \n a line break.
func dotUnquote(t *testing.T, q string) []string {
	t.Helper()
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		t.Fatalf("not a quoted DOT string: %q", q)
	}
	var lines []string
	var cur strings.Builder
	body := q[1 : len(q)-1]
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '"':
			t.Fatalf("an unescaped quote in %q", q)
		case c == '\\':
			i++
			if i == len(body) {
				t.Fatalf("a dangling backslash in %q", q)
			}
			switch body[i] {
			case 'n':
				lines = append(lines, cur.String())
				cur.Reset()
			case '\\', '"':
				cur.WriteByte(body[i])
			default:
				t.Fatalf("a Graphviz escape \\%c in %q", body[i], q)
			}
		default:
			cur.WriteByte(c)
		}
	}
	return append(lines, cur.String())
}

// mermaidUnquote reads a Mermaid string as Mermaid draws it: <br> breaks
// lines, #<decimal>; is a character.
func mermaidUnquote(t *testing.T, q string) []string {
	t.Helper()
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		t.Fatalf("not a quoted Mermaid string: %q", q)
	}
	body := q[1 : len(q)-1]
	if rest := entityRE.ReplaceAllString(strings.ReplaceAll(body, "<br>", ""), ""); strings.ContainsAny(rest, "\"#&<>;|`:%\n\r") {
		t.Fatalf("a raw syntax character in %q", q)
	}
	var lines []string
	for _, l := range strings.Split(body, "<br>") {
		lines = append(lines, entityRE.ReplaceAllStringFunc(l, func(m string) string {
			n, err := strconv.Atoi(m[1 : len(m)-1])
			if err != nil {
				t.Fatalf("entity %q", m)
			}
			return string(rune(n))
		}))
	}
	return lines
}

// FuzzQuote: whatever a story writes, each format's quoting reads back as
// the wrapped text, with no character left that the format would parse.
func FuzzQuote(f *testing.F) {
	for _, s := range nasty {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := wrap(s)
		if len(want) == 0 {
			want = []string{""}
		}
		if got := dotUnquote(t, dotQuote(wrap(s))); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("DOT reads %q back as %q, want %q", s, got, want)
		}
		got := mermaidUnquote(t, mermaidQuote(wrap(s)))
		if len(want) == 1 && want[0] == "" && len(got) == 1 && got[0] == " " {
			got = want // an empty label is written as one space
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("Mermaid reads %q back as %q, want %q", s, got, want)
		}
		for _, l := range want {
			if !utf8.ValidString(l) || strings.ContainsAny(l, "\n\r\t") {
				t.Fatalf("wrapped line %q is not one valid line", l)
			}
			if utf8.RuneCountInString(l) > labelWidth && strings.Contains(l, " ") {
				t.Fatalf("line %q is wider than %d and could break", l, labelWidth)
			}
		}
		if strings.Join(strings.Fields(strings.Join(want, " ")), " ") != oneLine(s) {
			t.Fatalf("wrapping %q lost text: %q", s, want)
		}
	})
}
