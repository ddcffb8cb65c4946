package yamlnode

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// Field is one known key of a mapping: its typed destination, Pos for its
// position, and Read, called after with the key and value nodes.
type Field struct {
	Key   string
	Str   *string
	Bool  *bool
	BoolP **bool
	Int   *int
	Float **float64
	List  *[]string
	Raw   *any
	Pos   *Pos
	Read  func(k, v *yaml.Node)
	// Refused marks a key read only to refuse it with its own message: it
	// is never offered to the author as an expected key.
	Refused bool
}

// Fields is a mapping's table of known keys: both the list a did-you-mean
// chooses from and the switch over the keys.
type Fields []Field

// Keys lists the table's keys in order, as copies so the table stays on
// the stack; refused keys are left out.
func (fs Fields) Keys() []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		if !f.Refused {
			out = append(out, strings.Clone(f.Key))
		}
	}
	return out
}

// Find returns the field of key, nil when the table has none.
func (fs Fields) Find(key string) *Field {
	for i := range fs {
		if fs[i].Key == key {
			return &fs[i]
		}
	}
	return nil
}

// Fields reads the mapping n named where through fs; unknown keys are errors.
func (w *Walker) Fields(n *yaml.Node, where string, fs Fields) bool {
	at := Place{Where: where}
	return w.FieldsAt(n, at, at, diag.Error, fs, nil)
}

// FieldsAt reads the mapping n named at through fs (values named
// vals.<key>, unknown keys at unknownSev); each sees every known key first.
func (w *Walker) FieldsAt(n *yaml.Node, at, vals Place, unknownSev diag.Severity, fs Fields, each func(key string, k, v *yaml.Node)) bool {
	return w.mapping(n, at, unknownSev, nil, fs, vals, each)
}

// read reads the value v of key (f.Key: the table's own string is not
// passed on, so the table never leaves the stack) into f, named vals.<key>.
func (w *Walker) read(f *Field, key string, vals Place, k, v *yaml.Node) {
	switch {
	case f.Str != nil:
		*f.Str = w.StrAtPl(v, vals, key)
	case f.Bool != nil:
		*f.Bool = w.boolAtPl(v, vals, key)
	case f.BoolP != nil:
		*f.BoolP = w.BoolPtr(v, vals.Dot(key))
	case f.Int != nil:
		*f.Int = w.Integer(v, vals.Dot(key))
	case f.Float != nil:
		*f.Float = w.Float(v, vals.Dot(key))
	case f.List != nil:
		*f.List = w.StrList(v, vals.Dot(key))
	case f.Raw != nil:
		*f.Raw = w.Raw(v)
	}
	if f.Pos != nil {
		*f.Pos = w.Pos(v)
	}
	if f.Read != nil {
		f.Read(k, v)
	}
}
