package yamlnode

import (
	"errors"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// fileRule is the rule a [NewFileWalker]'s findings are reported under:
// they go back to the caller as one error ([Walker.Err]), never to
// validate's output, so no one sees its id.
var fileRule = &diag.Rule{ID: "yaml-file"}

var fileRules = &Rules{Syntax: fileRule, Type: fileRule, Duplicate: fileRule, Unknown: fileRule}

// NewFileWalker is a Walker of a file kitsoki alone reads (a plugin
// manifest, a pin file) of size bytes, whose findings the caller takes
// back as one error ([Walker.Err]); it reads values as yaml.v3 decodes
// them into Go values through [Decoded] and [Walker.DecodedStrList].
func NewFileWalker(file string, size int) *Walker {
	var out []diag.Diagnostic
	return NewWalker(file, size, &out, fileRules)
}

// Err is the errors the walk reported, in file order, on one line
// ("m.yaml:4:3: entry: unknown key ...; m.yaml:7:5: ..."); nil when there
// were none.
func (w *Walker) Err() error {
	var msgs []string
	for _, d := range diag.Sort(*w.Out) {
		if d.Severity == diag.Error {
			msgs = append(msgs, d.Pos()+": "+d.Message)
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "; "))
}

// Decoded is the scalar n as yaml.v3 decodes it into a Go T (an int
// takes a whole number or a number with a point, cut toward zero, and no
// text; a bool the YAML 1.1 words too), for the files kitsoki alone
// reads, where no upstream reading ([Walker.Integer]) is to be matched;
// null is T's zero. Another kind, or a scalar yaml.v3 refuses, is
// reported at where as not the shape ("an integer") expected.
func Decoded[T any](w *Walker, n *yaml.Node, where, shape string) T {
	var v T
	d := Deref(n)
	if IsNull(d) {
		return v
	}
	if d.Kind != yaml.ScalarNode || d.Decode(&v) != nil {
		w.Report(w.Pos(n), diag.Error, w.Rules.Type, "%s: expected %s, got %s", where, shape, Describe(d))
		var zero T
		return zero
	}
	return v
}

// DecodedStrList is the list n of strings as yaml.v3 decodes it into a
// Go []string: a null item is left out, null is nil and [] empty; a scalar
// in place of the list, or an item that is no scalar, is reported.
func (w *Walker) DecodedStrList(n *yaml.Node, where string) []string {
	d := Deref(n)
	if d != nil && d.Kind == yaml.ScalarNode && !IsNull(d) {
		w.Report(w.Pos(n), diag.Error, w.Rules.Type, "%s: expected a list, got %s (write [%s])", where, Describe(d), d.Value)
		return nil
	}
	var out []string
	if d != nil && d.Kind == yaml.SequenceNode {
		out = make([]string, 0, len(d.Content))
	}
	w.Seq(n, where, func(i int, it *yaml.Node) {
		if !IsNull(it) {
			out = append(out, w.StrAt(it, where, i))
		}
	})
	return out
}
