package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// SlotDef is a declared slot of an intent as a run uses it: an input gets
// the default of a slot it leaves out; a missing required slot or an enum
// value outside values: rejects the intent (story-runtime §1.4). With
// Options.Strict so does a value that is not of the declared type: or one
// its validator: refuses (upstream checks neither).
type SlotDef struct {
	Required  bool
	Default   any // nil = none
	Values    []any
	Type      string
	Validator *guard
}

// slotDefs compiles the slots of an intents: map, recording each slot's
// declared type: in Machine.SlotTypes as written (a state's intents,
// compiled after the story's and its ancestors', win).
func (c *compiler) slotDefs(in map[string]*story.Intent, where string) map[string]map[string]*SlotDef {
	out := map[string]map[string]*SlotDef{}
	for name, it := range in {
		if it == nil {
			continue
		}
		if it.Hidden {
			c.m.Hidden[name] = true
		}
		defs := map[string]*SlotDef{}
		for sn, sl := range it.Slots {
			if sl == nil {
				continue
			}
			if c.m.SlotTypes[name] == nil {
				c.m.SlotTypes[name] = map[string]string{}
			}
			c.m.SlotTypes[name][sn] = sl.Type
			d := &SlotDef{Required: sl.Required, Default: jsonvalue.Normalize(sl.Default), Values: sl.Values, Type: strings.ToLower(strings.TrimSpace(sl.Type))}
			if v := strings.TrimSpace(sl.Validator); v != "" {
				g, err := compileGuard(v)
				if err != nil { // upstream never evaluates validators: the story still runs
					c.warn(sl.Pos, "%sintents.%s.slots.%s: validator: %v; the validator is not checked", where, name, sn, err)
				} else {
					d.Validator = g
				}
			}
			defs[sn] = d
		}
		out[name] = defs
	}
	return out
}

// slotDefsFor finds the declaration of intent as upstream's Validate
// does: the innermost state above the current leaf that declares it
// locally, else the global intents:, else (in a parallel configuration)
// the innermost above each later leaf, in the configuration's order
// (conformance par-slot-decl-first-leaf).
func (r *runner) slotDefsFor(intent string) (map[string]*SlotDef, bool) {
	local := func(l *State) (map[string]*SlotDef, bool) {
		for s := l; s != nil; s = s.Parent {
			if defs, ok := s.Intents[intent]; ok {
				return defs, true
			}
		}
		return nil, false
	}
	leaves := r.leaves()
	if len(leaves) > 0 {
		if defs, ok := local(leaves[0]); ok {
			return defs, true
		}
		leaves = leaves[1:]
	}
	if defs, ok := r.m.Intents[intent]; ok {
		return defs, true
	}
	for _, l := range leaves {
		if defs, ok := local(l); ok {
			return defs, true
		}
	}
	return nil, false
}

// inputSlots applies the declared slots of intent to an input's slots, as
// upstream's Validate does (story-runtime §1.4, conformance
// intent-slot-defaults): a required slot absent or null is missing; an
// absent optional one gets its default (unless the input has no slot map);
// a value present or defaulted is held against values: as fmt prints it.
func (r *runner) inputSlots(intent string, given map[string]any) (map[string]any, *Rejection) {
	defs, found := r.slotDefsFor(intent)
	if !found || len(defs) == 0 {
		return given, nil
	}
	var out map[string]any
	if given != nil {
		out = make(map[string]any, len(given)+len(defs))
		maps.Copy(out, given)
	}
	state := r.statePath() // the root in a parallel state
	if r.par != nil {
		state = r.par.root.Path
	}
	rej := func(code, msg string) *Rejection {
		return &Rejection{Code: code, Intent: intent, State: state, Message: msg}
	}
	var missing []string
	names := slices.Sorted(maps.Keys(defs))
	for _, n := range names {
		d := defs[n]
		v, ok := out[n]
		if d.Required && (!ok || v == nil) {
			missing = append(missing, n)
			continue
		}
		sent := ok
		if !ok {
			if d.Default == nil {
				continue
			}
			v = jsonvalue.Normalize(d.Default)
			if out != nil {
				out[n] = v
			}
		}
		if values := valueStrings(d.Values); len(values) > 0 && !slices.Contains(values, fmt.Sprint(v)) {
			return nil, rej(CodeInvalidSlot, fmt.Sprintf("slot %q value %q is not one of [%s]", n, fmt.Sprint(v), strings.Join(values, " ")))
		}
		if !r.so.Strict || !sent || v == nil {
			continue
		}
		if err := typedSlot(v, d.Type); err != nil { // the value is kept as sent
			return nil, rej(CodeInvalidSlot, fmt.Sprintf("slot %q value %q %v", n, fmt.Sprint(v), err))
		}
	}
	if len(missing) > 0 { // in name order, as names
		rj := rej(CodeMissingSlots, fmt.Sprintf("intent requires slots: [%s]", strings.Join(missing, " ")))
		rj.MissingSlots = missing
		return nil, rj
	}
	if !r.so.Strict {
		return out, nil
	}
	if msg := r.validatorRefuses(names, defs, out); msg != "" {
		return nil, rej(CodeInvalidSlot, msg)
	}
	return out, nil
}

// validatorRefuses is the first --strict validator: refusal's message ("" for none).
func (r *runner) validatorRefuses(names []string, defs map[string]*SlotDef, out map[string]any) string {
	for _, n := range names {
		d := defs[n]
		if d.Validator == nil || out[n] == nil {
			continue
		}
		ok, err := d.Validator.eval(r.env(out, nil))
		if err != nil { // not evaluable on this value: not refused
			r.note(Note{Kind: "slot", State: r.statePath(), Text: fmt.Sprintf("slot %q: validator %s not checked", n, d.Validator.src), Error: err.Error()})
			continue
		}
		if !ok {
			return fmt.Sprintf("slot %q value %q fails its validator: %s", n, fmt.Sprint(out[n]), d.Validator.src)
		}
	}
	return ""
}

// typedSlot checks a slot value against its declared type; a string that
// parses as the type passes (the caller keeps the value as sent).
func typedSlot(v any, typ string) error {
	ok, what := true, ""
	switch typ {
	case "int", "integer":
		what = "an integer"
		_, ok = asInt(v)
	case "number", "float":
		what = "a number"
		switch v.(type) {
		case int, int64, int32, uint64, float64, float32:
		default:
			ok = false
		}
	case "bool", "boolean":
		what = "true or false"
		_, ok = v.(bool)
	case "string":
		what = "a string"
		switch v.(type) {
		case map[string]any, []any:
			ok = false
		}
	case "list", "array":
		what = "a list"
		_, ok = v.([]any)
	case "object", "map":
		what = "a map"
		_, ok = v.(map[string]any)
	}
	if s, isString := v.(string); isString {
		switch typ {
		case "int", "integer", "number", "float", "bool", "boolean":
			_, err := parseTyped(s, typ) // a string that parses as the type passes
			ok = err == nil
		}
	}
	if !ok {
		return fmt.Errorf("is not %s (the slot is type: %s)", what, typ)
	}
	return nil
}

func valueStrings(values []any) []string {
	parts := make([]string, len(values))
	for i, x := range values {
		if x != nil { // upstream decodes values: as strings: a null is ""
			parts[i] = fmt.Sprint(x)
		}
	}
	return parts
}
