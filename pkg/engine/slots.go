package engine

import (
	"fmt"
	"sort"
	"strings"

	"kitsoki/pkg/story"
)

// SlotDef is a declared slot of an intent as a run uses it: an --intent
// input gets the default of a slot it leaves out, is refused when a
// required slot is missing (a one-shot run cannot ask for it) or when an
// enum slot's value is not one of values:.
type SlotDef struct {
	Required bool
	Default  any // nil = none
	Values   []any
}

// slotDefs compiles the slots of an intents: map. A slot validator: is
// refused: the engine does not evaluate it and will not skip it silently.
func (c *compiler) slotDefs(in map[string]*story.Intent, where string) map[string]map[string]*SlotDef {
	out := map[string]map[string]*SlotDef{}
	for name, it := range in {
		if it == nil {
			continue
		}
		defs := map[string]*SlotDef{}
		for sn, sl := range it.Slots {
			if sl == nil {
				continue
			}
			if strings.TrimSpace(sl.Validator) != "" {
				c.refuse(sl.Pos, "%sintents.%s.slots.%s: validator: kitsoki run does not evaluate slot validators; check the value with a when: guard on the transition instead", where, name, sn)
			}
			defs[sn] = &SlotDef{Required: sl.Required, Default: normalize(sl.Default), Values: sl.Values}
		}
		out[name] = defs
	}
	return out
}

// inputSlots applies the declared slots of intent (the innermost state
// declaring it locally, else the global intents:) to an input's slots.
func (r *runner) inputSlots(intent string, given map[string]any) (map[string]any, error) {
	var defs map[string]*SlotDef
	found := false
	for s := r.cur; s != nil && !found; s = s.Parent {
		defs, found = s.Intents[intent]
	}
	if !found {
		defs, found = r.m.Intents[intent]
	}
	if !found || len(defs) == 0 {
		return given, nil
	}
	out := make(map[string]any, len(given)+len(defs))
	for k, v := range given {
		out[k] = v
	}
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		d := defs[n]
		v, ok := out[n]
		if !ok || v == nil {
			switch {
			case d.Default != nil:
				out[n] = deepCopy(d.Default)
			case d.Required:
				return nil, fmt.Errorf("intent %q: slot %q is required and has no default; pass --slot %s=VALUE", intent, n, n)
			}
			continue
		}
		if len(d.Values) > 0 && !oneOf(v, d.Values) {
			return nil, fmt.Errorf("intent %q: slot %q = %v is not one of its values: %s", intent, n, v, valuesText(d.Values))
		}
	}
	return out, nil
}

func oneOf(v any, values []any) bool {
	s := fmt.Sprint(v)
	for _, x := range values {
		if fmt.Sprint(x) == s {
			return true
		}
	}
	return false
}

func valuesText(values []any) string {
	parts := make([]string, len(values))
	for i, x := range values {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}
