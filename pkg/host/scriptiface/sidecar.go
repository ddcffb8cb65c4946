package scriptiface

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// Sidecar is a Starlark script's interface file (<script>.yaml): typed
// inputs, checked before the script runs, and typed outputs, checked
// after (every declared output returned, no undeclared key).
type Sidecar struct {
	Inputs  map[string]Field
	Outputs map[string]Field
	// InputOrder / OutputOrder keep the file's order, for messages.
	InputOrder, OutputOrder []string
}

// Field is one declared input or output (a default: is checked as YAML,
// not kept: upstream applies none; description: and other keys are notes).
type Field struct {
	Type     string // string|int|number|bool|object|list|any
	Required bool
}

// Types are the type names a sidecar may use.
var Types = []string{"string", "int", "number", "bool", "object", "list", "any"}

// MaxBytes bounds a sidecar file.
const MaxBytes = 1 << 20

// upstreamSidecar is what upstream's decoder reads of a sidecar: a repeat
// through a merged list or an alias key elsewhere is no repeat to it.
type upstreamSidecar struct {
	Inputs, Outputs map[string]struct {
		Type, Required, Description any
	}
}

// Parse parses a sidecar; path labels errors (file:line: message).
// Unknown keys inside a field are ignored (upstream sidecars carry notes);
// an unknown type, a field that is not a mapping, or bad YAML is an error.
func Parse(path string, data []byte) (*Sidecar, error) {
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("%s: sidecar is larger than %d bytes", path, MaxBytes)
	}
	var root yaml.Node
	// within MaxBytes no document can pass yamlnode.MaxTreeNodes (a node
	// takes 2/3 of a byte at least): yaml.v3 reads it directly
	dec := yaml.NewDecoder(bytes.NewReader(data))
	sc := &Sidecar{Inputs: map[string]Field{}, Outputs: map[string]Field{}}
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return sc, nil // an empty sidecar declares nothing, as upstream reads it
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 0 {
		return sc, nil // comments only: declares nothing
	}
	// A null document (~) is refused as upstream's loader refuses it
	// ("null was used where mapping is expected"); an empty file is not.
	if doc.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d:%d: the sidecar must be a mapping (with inputs and outputs)", path, doc.Line, doc.Column)
	}
	if k := yamlnode.ComplexKey(doc); k != nil {
		return nil, fmt.Errorf("%s:%d:%d: %s", path, k.Line, k.Column, yamlnode.ComplexKeyMsg("sidecar"))
	}
	// upstream's parser and decoder refuse a key given twice, the whole file
	if at, msg := yamlnode.RepeatedKey(doc, reflect.TypeFor[upstreamSidecar](), "sidecar"); at != nil {
		return nil, fmt.Errorf("%s:%d:%d: %s", path, at.Line, at.Column, msg)
	}
	w := yamlnode.NewFileWalker(path, len(data))
	w.Typed = true // read as upstream's typed decoder reads it
	// other keys, here and in a field, are notes upstream reads past
	// (warnings, which Err leaves out)
	w.FieldsAt(doc, yamlnode.Place{Where: "top level"}, yamlnode.Place{}, diag.Warning, yamlnode.Fields{
		{Key: "inputs", Read: func(_, v *yaml.Node) { readFields(w, "inputs", v, sc.Inputs, &sc.InputOrder) }},
		{Key: "outputs", Read: func(_, v *yaml.Node) { readFields(w, "outputs", v, sc.Outputs, &sc.OutputOrder) }},
	}, nil)
	if err := w.Err(); err != nil {
		return nil, err
	}
	return sc, nil
}

// readFields reads the declarations of section (inputs or outputs) from
// the mapping n through w, aliases and merge keys followed as upstream's
// decoder follows them: a name given again (beside a merge key that
// brings it) takes the later declaration.
func readFields(w *yamlnode.Walker, section string, n *yaml.Node, into map[string]Field, order *[]string) {
	w.Mapping(n, section, nil, func(name string, _, v *yaml.Node) {
		where := section + "." + yamlnode.KeyText(name)
		f, ok := readField(w, where, v)
		if !ok {
			return
		}
		if _, again := into[name]; !again {
			*order = append(*order, name)
		}
		into[name] = f
	})
}

// readField reads one declaration: a mapping like {type: string,
// required: true}, or null (any). A type name alone (a: string) is
// refused, as upstream's decoder refuses it ("string was used where
// mapping is expected", probed).
func readField(w *yamlnode.Walker, where string, v *yaml.Node) (Field, bool) {
	f := Field{Type: "any"}
	switch d := yamlnode.Deref(v); {
	case yamlnode.IsNull(d):
	case d.Kind == yaml.MappingNode:
		w.FieldsAt(v, yamlnode.Place{Where: where}, yamlnode.Place{Where: where}, diag.Warning, yamlnode.Fields{
			{Key: "type", Read: func(_, t *yaml.Node) {
				if td := yamlnode.Deref(t); td != nil && td.Kind != yaml.ScalarNode {
					w.Report(w.Pos(t), diag.Error, w.Rules.Type, "%s.type must be one of %s", where, strings.Join(Types, "|"))
					return
				}
				if t := w.Str(t, where+".type"); t != "" {
					f.Type = t
				}
			}},
			{Key: "required", Read: func(_, r *yaml.Node) { f.Required = w.Boolean(r, where+".required") }},
			// a default is not applied: it is read within the node
			// budget, and a tagged scalar its tag does not fit (!!int abc)
			// is taken, as upstream's decoder takes it (probed)
			{Key: "default", Read: func(_, dv *yaml.Node) { w.Raw(dv) }},
		}, nil)
	default:
		w.Report(w.Pos(v), diag.Error, w.Rules.Type, "%s must be a mapping like {type: string, required: true}, got %s", where, yamlnode.Describe(d))
		return f, false
	}
	if !validType(f.Type) {
		w.Report(w.Pos(v), diag.Error, w.Rules.Type, "%s has unknown type %q; use one of %s", where, f.Type, strings.Join(Types, "|"))
		return f, false
	}
	return f, true
}

func validType(t string) bool { return slices.Contains(Types, t) }

// TypeOK reports whether v satisfies a sidecar type.
func TypeOK(typ string, v any) bool {
	switch typ {
	case "any":
		return true
	case "string":
		_, ok := v.(string)
		return ok
	case "bool":
		_, ok := v.(bool)
		return ok
	case "int", "number":
		// as upstream, int takes any number, 2.5 included (conformance
		// star-sidecar-types), but a YAML whole number that is not
		// negative (a uint64: conformance star-uint64)
		if _, u := v.(uint64); u {
			return false
		}
		_, whole := jsonvalue.Integer(v)
		return whole || reflect.ValueOf(v).CanFloat()
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "list":
		_, ok := v.([]any)
		return ok
	}
	return false
}

// CheckInputs checks inputs against the declaration (a missing required
// input, a wrong type, null included) and returns them as given:
// undeclared ones pass, no default: applies (conformance
// star-sidecar-default).
func (sc *Sidecar) CheckInputs(in map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(in)+len(sc.Inputs))
	maps.Copy(out, in)
	for _, name := range sc.InputOrder {
		f := sc.Inputs[name]
		v, ok := out[name]
		// null is checked as a value, as upstream
		if !ok {
			if f.Required {
				return nil, fmt.Errorf("missing required input %q", name)
			}
			continue
		}
		if !TypeOK(f.Type, v) {
			return nil, fmt.Errorf("input %q: expected %s, got %s", name, f.Type, TypeName(v, false))
		}
	}
	return out, nil
}

// CheckOutputs checks a script's returned dict: every declared output
// present with its type, no undeclared key.
func (sc *Sidecar) CheckOutputs(out map[string]any) error {
	if len(sc.Outputs) == 0 {
		// as upstream: with no output declared, any may be returned
		// (conformance star-sidecar-default)
		return nil
	}
	var extra []string
	for k := range out {
		if _, ok := sc.Outputs[k]; !ok {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		// upstream names one (in its map's order; ours the first sorted)
		return fmt.Errorf("script returned undeclared output %q", extra[0])
	}
	for _, name := range sc.OutputOrder {
		f := sc.Outputs[name]
		v, ok := out[name]
		if !ok {
			return fmt.Errorf("script did not return declared output %q", name)
		}
		if !TypeOK(f.Type, v) {
			return fmt.Errorf("output %q: expected %s, got %s", name, f.Type, TypeName(v, true))
		}
	}
	return nil
}

// TypeName names a value's type in a sidecar check's error as upstream
// does: Go's %T of the value as the engine holds it (a YAML whole number a
// uint64, int64 when negative, a computed one an int: conformance
// star-input-int-type, star-uint64), a script's whole number int64.
func TypeName(v any, fromScript bool) string {
	if _, whole := jsonvalue.Integer(v); whole && fromScript {
		return "int64"
	}
	return fmt.Sprintf("%T", v)
}
