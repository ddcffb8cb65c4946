package diag

import (
	"cmp"
	"fmt"
	"slices"
	"unicode/utf8"

	"kitsoki/internal/termsafe"
)

// Severity of a diagnostic.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Diagnostic is one positioned finding. Line and Col are 1-based; 0 means
// unknown (the whole file).
type Diagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Severity Severity `json:"severity"`
	Rule     string   `json:"rule"`
	Message  string   `json:"message"`
	// ViaFile and ViaLine are, for a finding in a file that cannot hold a
	// comment (a JSON schema), the story line that names that file: a
	// `# kitsoki:ignore` covering it silences the finding too (ApplyIgnores).
	// No output format prints them.
	ViaFile string `json:"-"`
	ViaLine int    `json:"-"`
	// Place is the place the message starts with, as data (the zero Place
	// when it starts with none): Message starts with Place.String() as
	// the finding was made. Format is the format the message was made
	// from: which check made it, for telling two findings at one place
	// apart without reading their text. No output format prints them.
	Place  Place  `json:"-"`
	Format string `json:"-"`
}

// String renders the one-line human form `file:line:col: severity: message
// [rule]`, the file name and the rule escaped as termsafe.Line does.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s: %s [%s]", d.Pos(), d.Severity, d.Message, termsafe.Line(d.Rule))
}

// Pos renders `file:line:col`, dropping unknown parts, the file name
// escaped as termsafe.Line does.
func (d Diagnostic) Pos() string {
	file := termsafe.Line(d.File)
	switch {
	case d.Line <= 0:
		return file
	case d.Col <= 0:
		return fmt.Sprintf("%s:%d", file, d.Line)
	default:
		return fmt.Sprintf("%s:%d:%d", file, d.Line, d.Col)
	}
}

// Sort orders diagnostics by file, line, column, rule and message, and
// removes duplicates (the same finding, whatever Place and Format say); a
// message past MaxMessage is shortened (ClipMessage) first.
func Sort(ds []Diagnostic) []Diagnostic {
	for i := range ds {
		ds[i].Message = ClipMessage(ds[i].Message)
	}
	slices.SortFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Message, b.Message),
			cmp.Compare(a.Severity, b.Severity),
			cmp.Compare(a.ViaFile, b.ViaFile),
			cmp.Compare(a.ViaLine, b.ViaLine),
			cmp.Compare(b.Place.String(), a.Place.String()), // a placed one first, kept
			cmp.Compare(a.Format, b.Format),
		)
	})
	return slices.CompactFunc(ds, func(a, b Diagnostic) bool {
		a.Place, a.Format, b.Place, b.Format = Place{}, "", Place{}, ""
		return a == b
	})
}

// MaxMessage bounds the bytes of a diagnostic's message. Messages quote
// the story's names and values: a long name an alias repeats as the
// target of many arms would multiply a story's size in validate's output,
// and as much for an editor (TestSortClipsLongMessages).
const MaxMessage = 4 << 10

// ClipMessage is m whole up to MaxMessage bytes; past it, its start and
// its end (where the fix is said), each cut on a character, around how
// much was left out.
func ClipMessage(m string) string { return Clip(m, MaxMessage) }

// Clip is ClipMessage for a bound of max bytes: a part of a message
// that would nest itself (each turn's reason quoting the one before).
func Clip(m string, max int) string {
	if len(m) <= max {
		return m
	}
	head, tail := max/2, len(m)-max/4
	for head > 0 && !utf8.RuneStart(m[head]) {
		head--
	}
	for tail < len(m) && !utf8.RuneStart(m[tail]) {
		tail++
	}
	return fmt.Sprintf("%s … (%d bytes left out) … %s", m[:head], tail-head, m[tail:])
}

// Demote turns the errors of ds into warnings that carry note, in place.
func Demote(ds []Diagnostic, note string) {
	for i := range ds {
		if ds[i].Severity == Error {
			ds[i].Severity = Warning
			ds[i].Message += " (" + note + ")"
		}
	}
}

// Count returns the number of errors and warnings.
func Count(ds []Diagnostic) (errors, warnings int) {
	for _, d := range ds {
		if d.Severity == Warning {
			warnings++
		} else {
			errors++
		}
	}
	return errors, warnings
}

// HasErrors reports whether any diagnostic is an error.
func HasErrors(ds []Diagnostic) bool {
	e, _ := Count(ds)
	return e > 0
}
