package expr

import (
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flosch/pongo2/v6"
)

// init fixes pongo2's process-wide settings once: autoescape off, kitsoki's
// custom filters registered, wordwrap and truncatechars replaced by versions
// that neither panic nor miscount. Nothing here changes after init.
func init() {
	pongo2.SetAutoescape(false)
	for name, fn := range map[string]pongo2.FilterFunction{
		"reverse":   filterReverse,
		"col":       filterCol,
		"rcol":      filterRcol,
		"reference": filterReference,
	} {
		if pongo2.FilterExists(name) {
			_ = pongo2.ReplaceFilter(name, fn)
		} else {
			_ = pongo2.RegisterFilter(name, fn)
		}
	}
	_ = pongo2.ReplaceFilter("wordwrap", filterWordwrap)
	_ = pongo2.ReplaceFilter("truncatechars", filterTruncatechars)
}

// filterReverse reverses a string (by runes) or a list; other values pass
// through unchanged.
func filterReverse(in, _ *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	if in.IsString() {
		r := []rune(in.String())
		slices.Reverse(r)
		return pongo2.AsValue(string(r)), nil
	}
	rv := reflect.ValueOf(in.Interface())
	if rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
		n := rv.Len()
		out := make([]any, n)
		for i := 0; i < n; i++ {
			out[n-1-i] = rv.Index(i).Interface()
		}
		return pongo2.AsValue(out), nil
	}
	return in, nil
}

func padWidth(param *pongo2.Value) int {
	if param == nil || param.IsNil() {
		return 0
	}
	return param.Integer()
}

// filterCol left-aligns the value in a column N runes wide (pads with spaces
// on the right; longer values are not cut).
func filterCol(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	s := valueText(in)
	return padded("col", s, 0, max(padWidth(param)-utf8.RuneCountInString(s), 0))
}

// filterRcol right-aligns the value in a column N runes wide.
func filterRcol(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	s := valueText(in)
	return padded("rcol", s, max(padWidth(param)-utf8.RuneCountInString(s), 0), 0)
}

// filterReference renders a value the way an effect-value template
// interpolates it: strings as is, nil as "", maps and lists as JSON (rather
// than Go's map[...] formatting).
func filterReference(in, _ *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	return pongo2.AsValue(valueText(in)), nil
}

func valueText(in *pongo2.Value) string {
	if in == nil || in.IsNil() {
		return ""
	}
	return stringify(in.Interface())
}

// filterWordwrap wraps text at N runes per line (Django semantics): words
// are kept whole, existing line breaks are kept, a word longer than N gets
// a line of its own. N <= 0 returns the input unchanged. (pongo2's own
// version counts words, not runes, and panics on some inputs.)
func filterWordwrap(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	width := padWidth(param)
	s := in.String()
	if width <= 0 {
		return pongo2.AsValue(s), nil
	}
	var b strings.Builder
	for li, line := range strings.Split(s, "\n") {
		if li > 0 {
			b.WriteByte('\n')
		}
		col := 0
		for wi, w := range strings.Fields(line) {
			wl := utf8.RuneCountInString(w)
			switch {
			case wi == 0:
			case col+1+wl > width:
				b.WriteByte('\n')
				col = 0
			default:
				b.WriteByte(' ')
				col++
			}
			b.WriteString(w)
			col += wl
		}
	}
	return pongo2.AsValue(b.String()), nil
}

// filterTruncatechars cuts text to at most N runes, the last being "…"
// when anything was cut (Django semantics). N <= 0 gives "".
func filterTruncatechars(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	n := padWidth(param)
	r := []rune(in.String())
	switch {
	case n <= 0:
		return pongo2.AsValue(""), nil
	case len(r) <= n:
		return pongo2.AsValue(string(r)), nil
	}
	return pongo2.AsValue(string(r[:n-1]) + "…"), nil
}
