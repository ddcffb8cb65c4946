package main

import "go.yaml.in/yaml/v3"

// scalar is one YAML scalar written exactly as a story author might type
// it: plain (yaml.v3 resolves its type as the reader will) or quoted.
type scalar struct {
	text   string
	quoted bool
}

// MarshalYAML writes the scalar as its text, unquoted unless quoted.
func (s scalar) MarshalYAML() (any, error) {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: s.text}
	if s.quoted {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n, nil
}

func plain(s string) scalar  { return scalar{text: s} }
func quoted(s string) scalar { return scalar{text: s, quoted: true} }

// scalarForms are the scalar forms the generator draws world defaults,
// set: values, host data, initial_world and expect_world values from:
// integers in every base and spelling, floats with a decimal point,
// plain numbers with none that yaml.v3 reads as floats (upstream keeps
// their text, docs/compat/yaml-numbers.md), strings that look like other
// things, and quoted numbers. `.inf`/`.nan` and non-string mapping keys
// are known, documented differences: only withKnown adds the first.
var scalarForms = []scalar{
	// integers
	plain("0"), plain("12"), plain("-12"), plain("+12"), plain("0x1F"), plain("017"),
	plain("0o17"), plain("0b101"), plain("1_000"), plain("-0"),
	// floats with a decimal point
	plain("1.5"), plain(".5"), plain("1."), plain("1.0e3"), plain("-0.0"), plain("6.02e23"),
	plain("2.50"), plain("1.0"),
	// plain numbers with no decimal point that yaml.v3 reads as floats
	plain("1e3"), plain("1E+3"), plain("-1e-3"), plain("08"), plain("09"),
	plain("99999999999999999999"), plain("-99999999999999999999"),
	// strings that look like other things
	quoted("1e3"), plain("yes"), plain("no"), plain("on"), plain("off"), plain("True"),
	plain("FALSE"), plain("~"), plain("null"), plain("12:30"), plain("2001-12-14"),
	plain("0.1.0"), plain("1.10"), plain("y"), plain("n"), quoted(""),
	// quoted numbers and words
	quoted("12"), quoted("0x1F"), quoted("1.5"), quoted("true"), quoted("null"), quoted("08"),
}

// knownForms differ between the engines on purpose (docs/compat/yaml-numbers.md).
var knownForms = []scalar{plain(".inf"), plain("-.inf"), plain(".nan")}

// form draws one scalar form.
func (g *gen) form() scalar {
	fs := scalarForms
	if g.withKnown {
		fs = append(fs[:len(fs):len(fs)], knownForms...)
	}
	return fs[g.rnd.IntN(len(fs))]
}
