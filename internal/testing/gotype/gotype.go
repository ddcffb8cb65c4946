// Package gotype owns the test-only check that a message meant for a user
// names no Go type ([Named]): encoding/json's "Go struct field ... of type
// map[string]interface {}", yaml.v3's "into struct { ... }", fmt's %T. It
// must not be imported outside tests, nor know any message of its callers.
package gotype

import "strings"

// names are the marks of a Go type in a message.
var names = []string{"Go struct", "Go value", "interface {}", "map[string]", "struct {", "[]*", "[]string", "[]int", "float64", "int64", "json.Number", "json.RawMessage"}

// Named returns the first mark of a Go type in msg that the input it was
// made from does not itself hold (a message may quote the input), or "".
func Named(msg string, input []byte) string {
	for _, n := range names {
		if strings.Contains(msg, n) && !strings.Contains(string(input), n) {
			return n
		}
	}
	return ""
}
