package host

import (
	"encoding/json"
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
// parses as exactly one value.
func suffixJSON(s string) (any, bool) {
	for pos := len(s); pos > 0; {
		i := strings.LastIndexByte(s[:pos], '\n')
		line := strings.TrimLeftFunc(s[i+1:], unicode.IsSpace)
		if len(line) > 0 && (line[0] == '{' || line[0] == '[') {
			if val, err := decodeOne(line); err == nil {
				return val, true
			}
		}
		if i < 0 {
			break
		}
		pos = i
	}
	return nil, false
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
