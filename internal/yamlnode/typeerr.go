package yamlnode

import (
	"errors"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ErrText is a yaml.v3 error on one line, without its "yaml: " prefix
// (the lines of a *yaml.TypeError joined by "; "): for a syntax error,
// which names its line, or the rare decode error a [Walker] did not place.
func ErrText(err error) string {
	if te, ok := errors.AsType[*yaml.TypeError](err); ok {
		msgs := make([]string, 0, len(te.Errors))
		for _, m := range te.Errors {
			msgs = append(msgs, strings.ReplaceAll(m, "\n", `\n`))
		}
		return strings.Join(msgs, "; ")
	}
	return strings.ReplaceAll(strings.TrimPrefix(err.Error(), "yaml: "), "\n", " ")
}

// Shape names the YAML a value of the Go type typ (as reflect writes it)
// is decoded from. A named type of another package ("story.Step") is
// taken for a struct: a mapping.
func Shape(typ string) string {
	typ = strings.TrimLeft(typ, "*")
	switch {
	case strings.HasPrefix(typ, "[]"):
		return "a list"
	case strings.HasPrefix(typ, "map["), strings.HasPrefix(typ, "struct"):
		return "a mapping"
	case typ == "string":
		return "a string"
	case typ == "bool":
		return "true or false"
	case strings.HasPrefix(typ, "int"), strings.HasPrefix(typ, "uint"):
		return "an integer"
	case strings.HasPrefix(typ, "float"):
		return "a number"
	case typ == "time.Duration":
		return "a duration"
	case typ == "time.Time":
		return "a timestamp"
	case strings.Contains(typ, "."):
		return "a mapping"
	}
	return "a value"
}

// ComplexKey returns the first mapping key under n (aliases not followed)
// that is a mapping or a list, or an alias of one: yaml.v3 cannot decode
// such a key into a Go map or struct (it fails naming a Go value, "invalid
// map key: []interface {}{...}", or with a recovered "runtime error: hash
// of unhashable type" through a merge), so a reader refuses it first, at
// its place, with [ComplexKeyMsg].
func ComplexKey(n *yaml.Node) *yaml.Node { return complexKey(n, Deref) }

// WrittenComplexKey is [ComplexKey] without alias keys: the first key
// written as a mapping or a list, which upstream's parser refuses in any
// file it reads ("found an invalid key for this map") while it takes an
// alias of one as a key. A reader that builds its values itself (flow
// fixtures) refuses only these, as upstream does.
func WrittenComplexKey(n *yaml.Node) *yaml.Node {
	return complexKey(n, func(k *yaml.Node) *yaml.Node { return k })
}

func complexKey(n *yaml.Node, key func(*yaml.Node) *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := key(n.Content[i]); k != nil && (k.Kind == yaml.MappingNode || k.Kind == yaml.SequenceNode) {
				return n.Content[i]
			}
		}
	}
	for _, c := range n.Content {
		if k := complexKey(c, key); k != nil {
			return k
		}
	}
	return nil
}

// ComplexKeyMsg is the refusal of the key [ComplexKey] found in a file of
// the kind what ("recording", "pin file"), placed by the caller.
func ComplexKeyMsg(what string) string {
	return "a mapping or a list is used as a key; a key in this " + what + " is a plain name: write it as one (quote it, e.g. \"[a, b]\": v, to keep its text)"
}
