package host

import (
	"encoding/json"
	"math"
	"strings"
	"unicode"
)

// trailingJSON finds the JSON value that ends the output, as upstream's
// host.run does: output ending in } or ] holds the shortest suffix that
// starts a line with { or [ after white space and parses as exactly one
// value (single- or multi-line); any other output its last line, trimmed, when that line is
// one JSON value of any kind (3, true, null, "s"). Numbers are float64, as
// upstream decodes them. When none parses but the last line looks like
// JSON (starts with {, [ or "), parseErr is encoding/json's error for that
// line, upstream's text (conformance host-run-json-scalar).
func trailingJSON(out string) (v any, parseErr string, found bool) {
	s := strings.TrimRightFunc(out, unicode.IsSpace)
	if s == "" {
		return nil, "", false
	}
	last := s
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		last = s[i+1:]
	}
	last = strings.TrimSpace(last)
	if end := s[len(s)-1]; end == '}' || end == ']' {
		if val, ok := suffixJSON(s); ok {
			return val, "", true
		}
	} else if val, err := decodeOne(last); err == nil {
		return val, "", true
	}
	if looksJSON(last) {
		if _, err := decodeOne(last); err != nil {
			return nil, err.Error(), false
		}
	}
	return nil, "", false
}

// suffixJSON is the value of the shortest suffix of s that starts a line
// with { or [ after any white space (a vertical tab, a form feed, a
// no-break space too, as upstream: conformance host-run-json-space) and
// parses as exactly one value. Only the suffixes whose brackets can close
// at s's last byte are parsed (balancedStarts): parsing every line's
// suffix took time quadratic in the output (TestTrailingJSONIsLinear).
func suffixJSON(s string) (any, bool) {
	for _, start := range balancedStarts(s) {
		line := strings.TrimLeftFunc(s[start:], unicode.IsSpace)
		if len(line) > 0 && (line[0] == '{' || line[0] == '[') {
			if val, err := decodeOne(line); err == nil {
				return val, true
			}
		}
	}
	return nil, false
}

// balancedStarts returns, last first, the line starts of s (s ends in }
// or ]) from which the brackets outside strings stay open until s's last
// byte and close there: what a suffix that is one JSON array or object
// must satisfy. A JSON string holds no raw newline, so a line of such a
// suffix starts outside any string, and a line's brackets are counted on
// their own. Two starts cannot both qualify (the earlier one's brackets
// would close at the later one), so at most one suffix is parsed.
func balancedStarts(s string) []int {
	body := s[:len(s)-1] // the closing bracket: depth 1 -> 0
	var starts []int
	// total and least are the net depth and the least depth after a
	// bracket of the text from the line being looked at to body's end
	total, least := 0, math.MaxInt
	for end := len(body); ; {
		start := strings.LastIndexByte(body[:end], '\n') + 1
		d, m := bracketDepths(body[start:end])
		if least != math.MaxInt {
			least += d
		}
		total, least = d+total, min(m, least)
		if total == 1 && least >= 1 {
			starts = append(starts, start)
		}
		if start == 0 {
			return starts
		}
		end = start - 1
	}
}

// bracketDepths returns line's net bracket depth and the least depth after
// any of its brackets (math.MaxInt for none), counting from 0 and skipping
// strings (a backslash escapes the next byte).
func bracketDepths(line string) (net, least int) {
	least = math.MaxInt
	inString := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			net++
			least = min(least, net)
		case c == '}' || c == ']':
			net--
			least = min(least, net)
		}
	}
	return net, least
}

// looksJSON: a line upstream reports a parse error for, one that starts
// an object, a list or a string.
func looksJSON(line string) bool {
	return line != "" && strings.ContainsRune("{[\"", rune(line[0]))
}

// decodeOne decodes exactly one JSON value with encoding/json (its error
// texts are upstream's), numbers as float64 as upstream's host.run decodes
// stdout_json (conformance host-run-json-floats).
func decodeOne(s string) (any, error) {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, err
	}
	return v, nil
}
