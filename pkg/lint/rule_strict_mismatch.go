package lint

import (
	"fmt"
	"strconv"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleStrictMismatch = &Rule{ID: "strict-mismatch", Severity: diag.Warning, LintOnly: true,
	Summary: "a value kitsoki run/test --strict reads differently from the existing engine: a quoted bool or number set on a typed world key (an effect's set: or an import exit's), an increment of a key that is not an integer",
	Example: "world: {flag: {type: bool, default: true}}\n# ... set: {flag: \"false\"}"}

// checkStrictMismatch warns where a story's values read differently with
// and without kitsoki run/test --strict (the messages say how).
func checkStrictMismatch(c *checker) {
	if len(c.st.World) == 0 {
		return
	}
	quotedSet := func(kv story.KV, where string) {
		s, ok := kv.Value.(string)
		v := c.st.Var(kv.Key)
		if !ok || v == nil || strings.Contains(s, "{{") || !setCoerces(v.Type) {
			return
		}
		if typed, ok := parsesAs(s, v.Type); ok {
			c.rep.Warnf(kv.Pos, ruleStrictMismatch, "%s: set %s: %q is a string on a type: %s key: it reads %s for the rest of the turn, then the string %q from the next turn on (the existing engine journals the string); with --strict it stays %s. Write %s without quotes",
				where, kv.Key, s, v.Type, typed, s, typed, typed)
		}
	}
	// an import exit's set: runs as an effect's, on the importer's keys
	// (probed: exits.done.set {m: "5"} reads 5 in the exit's turn, then
	// fails `world.m > 2` with string > int upstream and here)
	for _, a := range c.st.ImportOrder {
		if im := c.st.Imports[a]; im != nil {
			for _, name := range sortedMapKeys(im.Exits) {
				if ex := im.Exits[name]; ex != nil {
					for _, kv := range ex.Set {
						quotedSet(kv, "imports."+a+".exits."+name)
					}
				}
			}
		}
	}
	c.eachEffect(func(e *story.Effect, site effSite) {
		for _, kv := range e.Set {
			quotedSet(kv, site.String())
		}
		for _, kv := range e.Increment() {
			v := c.st.Var(kv.Key)
			if v == nil {
				continue
			}
			what, float := notInteger(v)
			if what == "" {
				continue
			}
			does := "replaces it with the delta"
			if float {
				does = "adds the delta to it truncated (1.5 + 1 = 2)"
			}
			c.rep.WarnAt(kv.Pos, site.Place(), ruleStrictMismatch, "%s: increment %s: the key %s, not an integer: the existing engine %s, --strict fails the turn. Declare it type: int with an integer default", site.String(), kv.Key, what, does)
		}
	})
}

// setCoerces reports whether a set: of a string on a key of the declared
// type typ is coerced: only bool, int and float, written so; integer,
// number, boolean or Int keep the string in both engines (conformance
// set-coercion-type-names), which is set-type's.
func setCoerces(typ string) bool {
	return typ == "bool" || typ == "int" || typ == "float"
}

// parsesAs reports whether s reads as a value of a bool, int or float
// world type, as the engine coerces a set, and that value as YAML writes it.
func parsesAs(s, typ string) (string, bool) {
	if strings.TrimSpace(s) != s {
		return "", false
	}
	switch strings.ToLower(typ) {
	case "bool", "boolean":
		if s == "true" || s == "false" {
			return s, true
		}
	case "int", "integer":
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return strconv.FormatInt(n, 10), true
		}
	case "float", "number":
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return strconv.FormatFloat(f, 'g', -1, 64), true
		}
	}
	return "", false
}

// notInteger says why a world key does not hold an integer an increment
// can add to ("" when it does); float reports a float one.
func notInteger(v *story.WorldVar) (what string, float bool) {
	switch t := strings.ToLower(v.Type); t {
	case "int", "integer":
		return "", false
	case "":
	default:
		return "is declared type: " + v.Type, t == "float" || t == "number"
	}
	switch d := v.Default.(type) {
	case nil, int, int64, uint64:
		return "", false
	case float64:
		if d == float64(int64(d)) {
			return "", false
		}
		return fmt.Sprintf("defaults to %v", d), true
	case string:
		return fmt.Sprintf("defaults to the string %q", d), false
	}
	return fmt.Sprintf("defaults to %v", v.Default), false
}
