package host

import (
	"strings"

	"kitsoki/internal/jsonvalue"
)

// trailingJSON finds the JSON value that ends the output (single- or
// multi-line): the shortest suffix that starts a line with { or [ and
// parses as exactly one value. Numbers are float64, as upstream decodes them.
// When none parses but the last line looks like JSON, parseErr says why.
func trailingJSON(out string) (v any, parseErr string, found bool) {
	s := strings.TrimRight(out, " \t\r\n")
	if s == "" {
		return nil, "", false
	}
	last := s
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		last = s[i+1:]
	}
	lastLooks := looksJSON(last)
	if end := s[len(s)-1]; end != '}' && end != ']' {
		if lastLooks {
			_, err := decodeOne(last)
			return nil, err.Error(), false
		}
		return nil, "", false
	}
	var firstErr error
	for pos := len(s); pos > 0; {
		i := strings.LastIndexByte(s[:pos], '\n')
		start := i + 1
		line := strings.TrimLeft(s[start:], " \t")
		if len(line) > 0 && (line[0] == '{' || line[0] == '[') {
			val, err := decodeOne(line)
			if err == nil {
				return val, "", true
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		if i < 0 {
			break
		}
		pos = i
	}
	if lastLooks && firstErr != nil {
		return nil, firstErr.Error(), false
	}
	return nil, "", false
}

func looksJSON(line string) bool {
	t := strings.TrimSpace(line)
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// decodeOne decodes exactly one JSON value, its numbers as float64 as
// upstream's host.run decodes stdout_json (conformance host-run-json-floats).
func decodeOne(s string) (any, error) {
	var v any
	if err := jsonvalue.One([]byte(s), &v); err != nil {
		return nil, err
	}
	return v, nil
}
