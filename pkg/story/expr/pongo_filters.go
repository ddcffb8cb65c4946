package expr

import (
	"crypto/sha256"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/flosch/pongo2/v6"

	"kitsoki/pkg/view/textwrap"
)

// init fixes pongo2's process-wide settings once: autoescape off, kitsoki's
// filters, safe wordwrap and truncatechars, size-checked filters, and
// kitsoki's for, set, cycle and ifchanged tags.
func init() {
	pongo2.SetAutoescape(false)
	for name, fn := range map[string]pongo2.FilterFunction{
		"reverse":       filterReverse,
		"col":           filterCol,
		"rcol":          filterRcol,
		"reference":     filterReference,
		"wordwrap":      filterWordwrap,
		"truncatechars": filterTruncatechars,
		"center":        filterCenter,
		"ljust":         filterLjust,
		"rjust":         filterRjust,
		"join":          filterJoin,
		"make_list":     filterMakeList,
		"split":         filterSplit,
		"add":           filterAdd,
		"stringformat":  filterStringformat,
		"floatformat":   filterFloatformat,
	} {
		if pongo2.FilterExists(name) {
			_ = pongo2.ReplaceFilter(name, fn)
		} else {
			_ = pongo2.RegisterFilter(name, fn)
		}
	}
	// the worst output bytes per input byte of pongo2's own filter
	for name, factor := range map[string]int{
		"escape": 6, "e": 6, "escapejs": 6, "addslashes": 2, "iriencode": 3,
		"urlencode": 3, "linebreaks": 8, "linebreaksbr": 7, "linenumbers": 24,
		"urlize": 64, "urlizetrunc": 64,
	} {
		_ = pongo2.ReplaceFilter(name, expanding(name, factor))
	}
	_ = pongo2.ReplaceTag("for", forTagParser)
	_ = pongo2.ReplaceTag("set", setTagParser)
	_ = pongo2.ReplaceTag("cycle", cycleTagParser)
	_ = pongo2.ReplaceTag("ifchanged", ifchangedTagParser)
	for _, m := range []struct{ enter, leave, what, loop string }{
		{macroEnterTag, macroLeaveTag, "macro calls", "a macro that calls"},
		{includeEnterTag, includeLeaveTag, "includes", "a template that includes"},
		{filterEnterTag, filterLeaveTag, "filter and spaceless blocks", "a block in"},
	} {
		_ = pongo2.RegisterTag(m.enter, regionParser(m.leave, m.what, m.loop))
		_ = pongo2.RegisterTag(m.leave, strayLeaveParser)
	}
}

// filterReverse reverses a string (by runes) or a list; others pass through.
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
		for i := range n {
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

// filterCol sets the value's pongo2 text in a column exactly N runes wide
// (padded or cut), as upstream's does; N <= 0 gives "".
func filterCol(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	s, n := column(in, param)
	return padded("col", s, 0, n-utf8.RuneCountInString(s))
}

// filterRcol is filterCol padding on the left.
func filterRcol(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	s, n := column(in, param)
	return padded("rcol", s, n-utf8.RuneCountInString(s), 0)
}

// column is the text of a col/rcol cell cut to its width, and the width.
func column(in, param *pongo2.Value) (string, int) {
	n := max(padWidth(param), 0)
	r := []rune(in.String())
	if len(r) > n {
		r = r[:n]
	}
	return string(r), n
}

// filterReference quotes a text as a numbered reference block, as
// upstream's does:
//
//	<reference src="PARAM" lines="1-N" sha256="8 hex">
//	 1 | first line
//	</reference>
//
// numbers right-aligned, a trailing newline starting no line, nil and ""
// with lines="0-0".
func filterReference(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	if in == nil || in.IsNil() {
		return pongo2.AsValue(""), nil
	}
	text := in.String()
	src := ""
	if param != nil && !param.IsNil() {
		src = param.String()
	}
	var lines []string
	if text != "" {
		lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	}
	sum := sha256.Sum256([]byte(text))
	first := 0
	if len(lines) > 0 {
		first = 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<reference src=%q lines=\"%d-%d\" sha256=\"%x\">\n", src, first, len(lines), sum[:4])
	w := len(strconv.Itoa(len(lines)))
	for i, l := range lines {
		fmt.Fprintf(&b, "%*d | %s\n", w, i+1, l)
	}
	b.WriteString("</reference>")
	return pongo2.AsValue(b.String()), nil
}

// filterWordwrap wraps text at N cells per line as upstream does
// (textwrap.WordWrap); N <= 0 returns the input unchanged.
func filterWordwrap(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	return pongo2.AsValue(textwrap.WordWrap(in.String(), padWidth(param))), nil
}

// filterTruncatechars keeps the first N runes, the last three "..." when
// it cuts and N >= 3 (pongo2's semantics); N <= 0 gives "".
func filterTruncatechars(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	n := padWidth(param)
	r := []rune(in.String())
	switch {
	case n <= 0:
		return pongo2.AsValue(""), nil
	case len(r) <= n:
		return pongo2.AsValue(string(r)), nil
	case n >= 3:
		return pongo2.AsValue(string(r[:n-3]) + "..."), nil
	}
	return pongo2.AsValue(string(r[:n])), nil
}
