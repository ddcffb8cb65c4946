package diag

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"kitsoki/internal/lazyre"
)

// IgnoreMarker starts an inline suppression comment in a YAML file
// (`# kitsoki:ignore effect-kinds, bare-expr`). It applies to its own line,
// or to the next when it stands alone; with no ids, to every rule. A line
// opening a YAML block scalar (key: |) carries it for the scalar's text,
// and a finding in a file that holds no comment (a JSON schema) takes it on
// the story line that names that file (Diagnostic.ViaFile). Only warnings
// can be suppressed: hiding an error only moves the failure.
const IgnoreMarker = "kitsoki:ignore"

// ignoreMark is one `# kitsoki:ignore` comment.
type ignoreMark struct {
	File string
	Line int // the marker's own line
	Col  int // the column of "kitsoki:ignore"
	// Covers is the line the marker suppresses on; Through (>= Covers) is
	// the last (Covers, unless Covers opens a YAML block scalar: its lines too).
	Covers, Through int
	// Rules are the ids it names (nil: every rule), at RuleCols.
	Rules    []string
	RuleCols []int
}

// ruleIDRE is one rule id after a marker.
var ruleIDRE = &lazyre.Regexp{Expr: `[^, \t]+`}

func findMarkers(file string, data []byte) []ignoreMark {
	var out []ignoreMark
	raws := bytes.Split(data, []byte("\n"))
	var ends []int // blockEnds, worked out at the first marker
	for i, raw := range raws {
		line := string(bytes.TrimRight(raw, "\r"))
		h := strings.Index(line, "#")
		if h < 0 {
			continue
		}
		j := strings.Index(line[h:], IgnoreMarker)
		if j < 0 {
			continue
		}
		at := h + j
		m := ignoreMark{File: file, Line: i + 1, Col: utf8.RuneCountInString(line[:at]) + 1, Covers: i + 1}
		if strings.TrimSpace(line[:h]) == "" {
			m.Covers = i + 2
		}
		if ends == nil {
			ends = blockEnds(raws)
		}
		m.Through = m.Covers
		if m.Covers-1 < len(ends) && ends[m.Covers-1] > 0 {
			m.Through = ends[m.Covers-1]
		}
		off := at + len(IgnoreMarker)
		for _, id := range ruleIDRE.Get().FindAllStringIndex(line[off:], -1) {
			m.Rules = append(m.Rules, line[off+id[0]:off+id[1]])
			m.RuleCols = append(m.RuleCols, utf8.RuneCountInString(line[:off+id[0]])+1)
		}
		out = append(out, m)
	}
	return out
}

// blockHeader is a YAML line whose value is a block scalar (key: |,
// - >-), with an optional comment: group 1 is what precedes the key (or
// the scalar), group 2 the key; the scalar's lines are indented past the
// key, or past the dash of a - | item.
var blockHeader = &lazyre.Regexp{Expr: `^((?:[ \t]*-[ \t]+)*[ \t]*)([^\s#][^#]*?:[ \t]+)?[|>][0-9+-]*[ \t]*(?:#.*)?$`}

// blockEnds maps each line (0-based) opening a YAML block scalar to the
// last line (1-based) of its text, 0 elsewhere, in one pass: a marker on a
// key: | line, or alone above it, covers the text too, where no comment
// can be written. Lines inside a block scalar open none.
func blockEnds(raws [][]byte) []int {
	ends := make([]int, len(raws))
	for i := 0; i < len(raws); i++ {
		line := strings.TrimRight(string(raws[i]), "\r")
		if !strings.ContainsAny(line, "|>") {
			continue
		}
		sub := blockHeader.Get().FindStringSubmatch(line)
		if sub == nil {
			continue
		}
		indent := len(sub[1]) // key: |: the key's column
		if sub[2] == "" {
			indent = len(strings.TrimRight(sub[1], " \t")) - 1 // - |: the dash's
		}
		last := 0
		for j := i + 1; j < len(raws); j++ {
			text := strings.TrimRight(string(raws[j]), "\r")
			body := strings.TrimLeft(text, " ")
			if body == "" {
				continue
			}
			if len(text)-len(body) <= indent {
				break
			}
			last = j
		}
		if last > 0 {
			ends[i] = last + 1
			i = last
		}
	}
	return ends
}

// names reports whether the marker names rule (a marker naming none names
// every rule).
func (m ignoreMark) names(rule string) bool {
	return len(m.Rules) == 0 || slices.Contains(m.Rules, rule)
}

// IgnoreResult is what applying the markers of a set of files gives.
type IgnoreResult struct {
	Kept []Diagnostic // the diagnostics no marker suppresses
	// Unknown are warnings about ids no rule has or aimed at an error.
	Unknown []Diagnostic
	// Unused are warnings about markers (or ids) that suppress nothing.
	Unused []Diagnostic
}

// ApplyIgnores drops the warnings suppressed by the markers of files (src
// returns a file's bytes), and reports markers naming an id known does not
// accept and markers that suppress nothing, as warnings of rule ruleID.
func ApplyIgnores(ds []Diagnostic, files []string, src func(string) ([]byte, bool), known func(string) bool, ruleID string) IgnoreResult {
	var markers []ignoreMark
	seen := map[string]bool{}
	read := func(f string) {
		if !seen[f] {
			seen[f] = true
			if data, ok := src(f); ok {
				markers = append(markers, findMarkers(f, data)...)
			}
		}
	}
	for _, f := range files {
		read(f)
	}
	for _, d := range ds { // files outside the list may carry markers too
		if d.Severity == Warning && d.Line > 0 {
			read(d.File)
		}
		if d.Severity == Warning && d.ViaLine > 0 {
			read(d.ViaFile)
		}
	}
	var res IgnoreResult
	// used records, per marker and rule, whether it hid a warning (usedAny:
	// of any rule); errs the errors on its line.
	type markRule struct {
		i    int
		rule string
	}
	used, errs, usedAny := map[markRule]bool{}, map[markRule]bool{}, make([]bool, len(markers))
	// The markers by the line they cover: a diagnostic looks at its own
	// line's only, so a file of a marker and a finding on every line costs
	// linear time, not markers times findings.
	type fileLine struct {
		file string
		line int
	}
	atLine := map[fileLine][]int{}
	for i, m := range markers {
		for l := m.Covers; l <= m.Through; l++ {
			k := fileLine{m.File, l}
			atLine[k] = append(atLine[k], i)
		}
	}
	for _, d := range ds {
		hidden := false
		if d.Line <= 0 && d.ViaLine <= 0 {
			res.Kept = append(res.Kept, d)
			continue
		}
		// the markers on the finding's line, then on the story line that
		// names its file (ViaFile:ViaLine): each covers d if it names d's rule
		at := atLine[fileLine{d.File, d.Line}]
		if d.ViaLine > 0 {
			at = append(slices.Clip(at), atLine[fileLine{d.ViaFile, d.ViaLine}]...)
		}
		for _, i := range at {
			switch m := markers[i]; {
			case !m.names(d.Rule):
			case d.Severity == Warning:
				hidden, usedAny[i] = true, true
				used[markRule{i, d.Rule}] = true
			case d.Severity == Error:
				errs[markRule{i, d.Rule}] = true
			}
		}
		if !hidden {
			res.Kept = append(res.Kept, d)
		}
	}
	for i, m := range markers {
		warn := func(to *[]Diagnostic, col int, format string, a ...any) {
			*to = append(*to, Diagnostic{File: m.File, Line: m.Line, Col: col, Severity: Warning, Rule: ruleID, Message: fmt.Sprintf(format, a...)})
		}
		if len(m.Rules) == 0 {
			if !usedAny[i] {
				warn(&res.Unused, m.Col, "%s suppresses nothing: no warning is reported on line %d; remove the comment", IgnoreMarker, m.Covers)
			}
			continue
		}
		for j, id := range m.Rules {
			switch {
			case !known(id):
				warn(&res.Unknown, m.RuleCols[j], "%s %s: no rule has this id (kitsoki validate --list-rules lists them)", IgnoreMarker, id)
			case !used[markRule{i, id}] && errs[markRule{i, id}]:
				warn(&res.Unknown, m.RuleCols[j], "%s %s cannot suppress the %s error on line %d: only warnings can be silenced (an error is a real defect; fix it)", IgnoreMarker, id, id, m.Covers)
			case !used[markRule{i, id}]:
				warn(&res.Unused, m.RuleCols[j], "%s %s suppresses nothing: no %s warning is reported on line %d; remove it", IgnoreMarker, id, id, m.Covers)
			}
		}
	}
	return res
}

// FilterIgnored drops the warnings the markers of their own files
// suppress, judging no marker.
func FilterIgnored(ds []Diagnostic, src func(string) ([]byte, bool)) []Diagnostic {
	files := make([]string, 0, len(ds))
	for _, d := range ds {
		files = append(files, d.File)
	}
	return ApplyIgnores(ds, files, src, func(string) bool { return true }, "").Kept
}
