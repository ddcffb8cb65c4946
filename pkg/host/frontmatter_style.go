package host

import (
	"math"
	"strconv"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"

	"go.yaml.in/yaml/v3"
)

// The scalar forms of a bug file's front matter as upstream reads and
// writes them back (host.append_to_file, host.local_files.ticket.comment
// and .transition; conformance frontmatter-scalars). Upstream's YAML
// differs from yaml.v3's in three ways seen there: a number written with
// an exponent and no point (1e3, -1e3, 1e+21) is text; a whole float is
// written with ".0" (1500.0); and a string is quoted, always in double
// quotes, only when it reads as something else by upstream's rules below.
var (
	// upNumber is a scalar upstream reads as a number: an int (decimal,
	// 0b, 0o, 0x, underscores) or a float with a point.
	upNumber = &lazyre.Regexp{Expr: `^[-+]?(0b[01_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*|(\.[0-9]+|[0-9][0-9_]*\.[0-9_]*)([eE][-+]?[0-9]+)?)$`}
	// upExponent is a scalar yaml.v3 reads as a float and upstream as text.
	upExponent = &lazyre.Regexp{Expr: `^[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+$`}
	// upDate is a date or date-time upstream quotes (two-digit month and
	// day; 2026-1-1 is plain text).
	upDate = &lazyre.Regexp{Expr: `^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[-+][0-9]{2}:[0-9]{2})?)?$`}
	// upClock is an hour and minute upstream quotes (1:2, 12:30; not
	// 59:59, nor 12:30:00).
	upClock = &lazyre.Regexp{Expr: `^([01]?[0-9]|2[0-3]):[0-5]?[0-9]$`}
)

// upReserved are the words upstream quotes, each also in title and upper
// case.
var upReserved = map[string]bool{}

func init() {
	for _, w := range []string{"null", "true", "false", "yes", "no", "on", "off", "y", "n"} {
		upReserved[w], upReserved[strings.ToUpper(w[:1])+w[1:]], upReserved[strings.ToUpper(w)] = true, true, true
	}
	upReserved["~"] = true
}

// upQuotes reports whether upstream writes the one-line string s in
// double quotes.
func upQuotes(s string) bool {
	switch {
	case s == "" || upReserved[s] || s == "-" || strings.HasPrefix(s, "- "):
		return true
	case strings.ContainsAny(s[:1], "!\"#%&'*>@[]{}|`,"):
		return true
	case strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":"):
		return true
	case s != strings.TrimSpace(s):
		return true
	}
	return upNumber.MatchString(s) || upDate.MatchString(s) || upClock.MatchString(s)
}

// exponentsAsText makes every plain scalar under n that upstream reads as
// text and yaml.v3 as a float (1e3) a string, written back as it was.
func exponentsAsText(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Style == 0 && n.ShortTag() == "!!float" && upExponent.MatchString(n.Value) {
		n.Tag = "!!str"
	}
	for _, c := range n.Content {
		exponentsAsText(c)
	}
}

// upFloats is v with each whole float (a map's, a list's) a node that
// yaml.v3 writes as upstream does, with ".0" (1500.0; 1e+21 as it is):
// yaml.v3 writes and tags it as an int.
func upFloats(v any) any {
	return jsonvalue.MapLeaves(v, func(e any) any {
		f, ok := e.(float64)
		if !ok || math.IsInf(f, 0) || math.IsNaN(f) {
			return e
		}
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if strings.ContainsAny(s, ".e") {
			return e
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: s + ".0"}
	})
}

// upStyle gives each one-line string under n, encoded by yaml.v3,
// upstream's form: plain, or in double quotes (yaml.v3 itself still quotes
// one it cannot write plain, a tab or a control character). A string of
// several lines is left to yaml.v3 (a literal block, or double quotes), as
// upstream writes it.
func upStyle(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && !strings.Contains(n.Value, "\n") {
		n.Style = 0
		if upQuotes(n.Value) {
			n.Style = yaml.DoubleQuotedStyle
		} else {
			n.Tag = "" // plain, even where yaml.v3 would read it as another type
		}
	}
	for _, c := range n.Content {
		upStyle(c)
	}
	if n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		// upstream writes a key << plain, a merge key no YAML reads back as
		// the text it was; kept quoted here (docs/compat/hosts.md)
		if k := n.Content[i]; k.Value == "<<" && k.Tag == "" {
			k.Tag, k.Style = "!!str", yaml.DoubleQuotedStyle
		}
	}
}
