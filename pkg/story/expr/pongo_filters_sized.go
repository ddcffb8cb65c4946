package expr

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/flosch/pongo2/v6"
)

// Size-producing filters check what they would produce against
// MaxRenderBytes before allocating it. Padding and joining filters are
// kitsoki's own; those that grow each byte by a fixed factor keep pongo2's
// code (kept in templates compiled before the filter is replaced) behind a
// length check.

// sizeError is a filter's refusal to produce n bytes.
func sizeError(filter string, n int) *pongo2.Error {
	return &pongo2.Error{Sender: "filter:" + filter, OrigError: fmt.Errorf("%w: filter %s would produce %d bytes, over the limit of %d; use a smaller width or less text", ErrRenderBudget, filter, n, MaxRenderBytes)}
}

// sizeOK reports whether n bytes (or more than an int holds: n < 0) fit.
func sizeOK(n int) bool { return n >= 0 && n <= MaxRenderBytes }

// expanding returns pongo2's filter name behind a size check (input × factor).
func expanding(name string, factor int) pongo2.FilterFunction {
	bare := pongo2.Must(pongo2.FromString("{{ v|" + name + " }}"))
	withParam := pongo2.Must(pongo2.FromString("{{ v|" + name + ":p }}"))
	return func(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
		s := in.String()
		if n := len(s) * factor; len(s) > MaxRenderBytes || !sizeOK(n) {
			return nil, sizeError(name, n)
		}
		tpl, ctx := bare, pongo2.Context{"v": s}
		// pongo2 calls escape with a nil param inside {% autoescape on %}
		if param != nil && !param.IsNil() {
			tpl, ctx = withParam, pongo2.Context{"v": s, "p": param.Interface()}
		}
		out, err := tpl.Execute(ctx)
		if err != nil {
			return nil, &pongo2.Error{Sender: "filter:" + name, OrigError: err}
		}
		return pongo2.AsSafeValue(out), nil
	}
}

// padded returns s with left and right spaces, if it fits.
func padded(filter, s string, left, right int) (*pongo2.Value, *pongo2.Error) {
	n := len(s) + left + right
	if left < 0 || right < 0 || left > MaxRenderBytes || right > MaxRenderBytes || !sizeOK(n) {
		return nil, sizeError(filter, n)
	}
	return pongo2.AsValue(strings.Repeat(" ", left) + s + strings.Repeat(" ", right)), nil
}

// filterCenter centres the value in a field of N runes.
func filterCenter(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	width, n := param.Integer(), in.Len()
	if width <= n {
		return in, nil
	}
	spaces := width - n
	return padded("center", in.String(), spaces/2+spaces%2, spaces/2)
}

// filterLjust pads the value with spaces on the right to N runes.
func filterLjust(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	return padded("ljust", in.String(), 0, max(param.Integer()-in.Len(), 0))
}

// filterRjust pads the value with spaces on the left to N runes (a
// negative N pads on the right, as fmt's %-Ns does).
func filterRjust(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	s, width := in.String(), param.Integer()
	n := utf8.RuneCountInString(s)
	if width < 0 {
		return padded("rjust", s, 0, max(-width-n, 0))
	}
	return padded("rjust", s, max(width-n, 0), 0)
}

// filterJoin joins a list's items with the parameter; others pass through.
func filterJoin(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	if !in.CanSlice() {
		return in, nil
	}
	sep := param.String()
	items := make([]string, 0, in.Len())
	n := 0
	for i := 0; i < in.Len(); i++ {
		s := in.Index(i).String()
		n += len(s)
		if i > 0 {
			n += len(sep)
		}
		if !sizeOK(n) {
			return nil, sizeError("join", n)
		}
		items = append(items, s)
	}
	return pongo2.AsValue(strings.Join(items, sep)), nil
}

// listItemCost is the cost of one make_list or split element.
const listItemCost = 64

// filterMakeList makes a list of the value's runes.
func filterMakeList(in, _ *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	s := in.String()
	if n := utf8.RuneCountInString(s) * listItemCost; !sizeOK(n) {
		return nil, sizeError("make_list", n)
	}
	out := make([]string, 0, len(s))
	for _, r := range s {
		out = append(out, string(r))
	}
	return pongo2.AsValue(out), nil
}

// filterSplit splits the value at each occurrence of the parameter.
func filterSplit(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	s, sep := in.String(), param.String()
	parts := utf8.RuneCountInString(s) + 1
	if sep != "" {
		parts = strings.Count(s, sep) + 1
	}
	if n := parts * listItemCost; !sizeOK(n) {
		return nil, sizeError("split", n)
	}
	return pongo2.AsValue(strings.Split(s, sep)), nil
}

// filterAdd adds numbers, or concatenates the text of anything else.
func filterAdd(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	if in.IsNumber() && param.IsNumber() {
		if in.IsFloat() || param.IsFloat() {
			return pongo2.AsValue(in.Float() + param.Float()), nil
		}
		return pongo2.AsValue(in.Integer() + param.Integer()), nil
	}
	a, b := in.String(), param.String()
	if n := len(a) + len(b); !sizeOK(n) {
		return nil, sizeError("add", n)
	}
	return pongo2.AsValue(a + b), nil
}

// filterStringformat formats the value with the parameter as a Go format,
// refusing one whose output could pass MaxRenderBytes.
func filterStringformat(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	format := param.String()
	n, ok := formatBound(format, len(in.String()))
	if !ok {
		return nil, sizeError("stringformat", n)
	}
	return pongo2.AsValue(fmt.Sprintf(format, in.Interface())), nil
}

// formatBound bounds len(fmt.Sprintf(format, v)) for a v of vlen bytes.
func formatBound(format string, vlen int) (int, bool) {
	n := len(format)
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		n += 8*vlen + 64
		for i++; i < len(format); i++ {
			c := format[i]
			if c >= '0' && c <= '9' {
				j := i
				for j < len(format) && format[j] >= '0' && format[j] <= '9' {
					j++
				}
				w, err := strconv.Atoi(format[i:j])
				if err != nil || w > MaxRenderBytes {
					return MaxRenderBytes + 1, false
				}
				n += w
				i = j - 1
				continue
			}
			if strings.IndexByte("+-# .[]*", c) < 0 {
				break
			}
		}
		if !sizeOK(n) {
			return n, false
		}
	}
	return n, true
}

// filterFloatformat formats a number with N decimals (pongo2's rules: no
// parameter or N <= 0 trims a whole number to an integer).
func filterFloatformat(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	val := in.Float()
	decimals := -1
	if !param.IsNil() {
		decimals = param.Integer()
	}
	trim := !param.IsNumber()
	if decimals <= 0 {
		decimals = -decimals
		trim = true
	}
	if n := decimals + 330; decimals > MaxRenderBytes || !sizeOK(n) {
		return nil, sizeError("floatformat", n)
	}
	if trim && float64(int(val)) == val {
		return pongo2.AsValue(in.Integer()), nil
	}
	return pongo2.AsValue(strconv.FormatFloat(val, 'f', decimals, 64)), nil
}
