package diag

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"kitsoki/internal/termsafe"
)

// Format names an output format.
type Format string

// The formats ParseFormat accepts and Write renders (the --format values of
// validate and eval check).
const (
	FormatHuman  Format = "human"
	FormatJSON   Format = "json"
	FormatGitHub Format = "github"
	FormatSARIF  Format = "sarif"
	// FormatCodeClimate is the Code Climate JSON of GitLab's code quality
	// report, shown on a merge request's diff.
	FormatCodeClimate Format = "codeclimate"
)

// ParseFormat checks a --format value.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case FormatHuman, FormatJSON, FormatGitHub, FormatSARIF, FormatCodeClimate:
		return f, nil
	case "text", "":
		return FormatHuman, nil
	}
	return "", fmt.Errorf("unknown format %q: use human, json, github, sarif or codeclimate", s)
}

// HumanOptions control the human format.
type HumanOptions struct {
	Color   bool // ANSI colours
	Snippet bool // quote the source line with a caret
	// Source returns the contents of a file for snippets: the bytes its
	// load read, or a read through the same root ([RootSource]); nil
	// quotes no line. A file is never read again by its path here: one
	// swapped for a link leading out after the load would be quoted.
	Source func(file string) ([]byte, bool)
}

// Write renders ds in format f to w. ds should already be sorted.
func Write(w io.Writer, f Format, ds []Diagnostic, tool ToolInfo, ho HumanOptions) error {
	switch f {
	case FormatJSON:
		return writeJSON(w, ds)
	case FormatGitHub:
		return WriteGitHub(w, ds)
	case FormatSARIF:
		return writeSARIF(w, ds, tool)
	case FormatCodeClimate:
		return writeCodeClimate(w, ds, tool)
	default:
		return WriteHuman(w, ds, ho)
	}
}

// writeJSON writes one JSON array with stable field names; an empty list is `[]`.
func writeJSON(w io.Writer, ds []Diagnostic) error {
	if ds == nil {
		ds = []Diagnostic{}
	}
	return writeIndented(w, ds)
}

// writeIndented writes v as indented JSON, safe to print on a terminal
// (termsafe.JSON).
func writeIndented(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(termsafe.JSON(data), '\n'))
	return err
}

// WriteGitHub writes GitHub Actions workflow commands (::error file=…,line=…,col=…,title=…::msg).
func WriteGitHub(w io.Writer, ds []Diagnostic) error {
	bw := bufio.NewWriter(w)
	for _, d := range ds {
		props := []string{"file=" + termsafe.WorkflowProperty(d.File)}
		if d.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", d.Line))
		}
		if d.Col > 0 {
			props = append(props, fmt.Sprintf("col=%d", d.Col))
		}
		props = append(props, "title="+termsafe.WorkflowProperty("kitsoki "+d.Rule))
		fmt.Fprintf(bw, "::%s %s::%s\n", d.Severity, strings.Join(props, ","), termsafe.WorkflowData(d.Message))
	}
	return bw.Flush()
}

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiGreen  = "\x1b[32m"
	ansiDim    = "\x1b[2m"
)

// WriteHuman writes `file:line:col: error: message [rule]`, optionally with
// the source line and a caret under the column.
func WriteHuman(w io.Writer, ds []Diagnostic, o HumanOptions) error {
	bw := bufio.NewWriter(w)
	src := o.Source // asked once per file: split below keeps its lines
	paint := func(code, s string) string {
		if !o.Color {
			return s
		}
		return code + s + ansiReset
	}
	// every file is split into lines once, however many diagnostics it has
	split := map[string][]string{}
	for _, d := range ds {
		sev := paint(ansiRed+ansiBold, string(d.Severity))
		if d.Severity == Warning {
			sev = paint(ansiYellow+ansiBold, string(d.Severity))
		}
		fmt.Fprintf(bw, "%s: %s: %s %s\n", paint(ansiBold, termsafe.Printable(d.Pos())), sev, termsafe.Printable(d.Message), paint(ansiDim, "["+termsafe.Line(d.Rule)+"]"))
		if !o.Snippet || src == nil || d.Line <= 0 {
			continue
		}
		ls, seen := split[d.File]
		if !seen {
			if data, ok := src(d.File); ok {
				ls = strings.Split(string(data), "\n")
			}
			split[d.File] = ls
		}
		if d.Line > len(ls) || (d.Line == len(ls) && ls[d.Line-1] == "") {
			continue
		}
		line := strings.TrimRight(ls[d.Line-1], "\r")
		line, col := snippetLine(line, d.Col)
		fmt.Fprintf(bw, "%5d | %s\n", d.Line, line)
		if col > 0 {
			r := []rune(line)
			pad := cells(r[:min(col-1, len(r))])
			fmt.Fprintf(bw, "      | %s%s\n", strings.Repeat(" ", pad), paint(ansiGreen, indicator(r, col)))
		}
	}
	return bw.Flush()
}

// indicator is the caret under the rune at col and a ~ under each further
// display cell of the token it starts, so the eye finds the whole word the
// diagnostic is about. The token ends at a space or at the YAML punctuation
// after a key or flow item (": ", ",", "]", "}").
func indicator(r []rune, col int) string {
	if col-1 >= len(r) {
		return "^"
	}
	end := col
	for end < len(r) && !tokenEnd(r, end) {
		end++
	}
	return "^" + strings.Repeat("~", max(cells(r[col-1:end])-1, 0))
}

func tokenEnd(r []rune, i int) bool {
	switch r[i] {
	case ' ', ',', ']', '}':
		return true
	case ':':
		return i+1 == len(r) || r[i+1] == ' '
	}
	return false
}

// snippetWidth bounds a quoted source line (a generated file's can be huge).
const snippetWidth = 120

// snippetLine makes a source line safe to quote on a terminal (tabs become
// spaces, control characters '?') and cuts one longer than snippetWidth to
// a window around col. It returns the line and the caret column in it.
func snippetLine(line string, col int) (string, int) {
	r := []rune(line)
	for i, c := range r {
		switch {
		case c == '\t':
			r[i] = ' '
		case c == '\n' || termsafe.IsControl(c):
			r[i] = '?'
		}
	}
	if len(r) <= snippetWidth {
		return string(r), col
	}
	start := 0
	if col > snippetWidth/2 {
		start = min(col-1-snippetWidth/2, len(r)-snippetWidth)
	}
	end := min(start+snippetWidth, len(r))
	out := string(r[start:end])
	if col > 0 {
		col -= start
	}
	if start > 0 {
		out = "…" + out
		if col > 0 {
			col++
		}
	}
	if end < len(r) {
		out += "…"
	}
	return out, col
}
