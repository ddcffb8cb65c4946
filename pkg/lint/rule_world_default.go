package lint

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleWorldDefault = &Rule{ID: "world-default", Severity: diag.Warning, LintOnly: true,
	Summary: "a world default the declared type does not hold: a quoted default on an int, float or bool key stays a string (guards and expect_world compare it as one), a number, bool, mapping or list default on a key of another type (0 on a bool, 3 on a string, true on an int), an enum default outside its values:, a {{ }} template, which neither engine renders; or a key of the entry spelled near default:, type: or values: (defualt:, value:), which both engines ignore, so the key has no default, type or values",
	Example: "world: {n: {type: int, default: \"0\"}}"}

// checkWorldDefaults warns at a world key whose default its type: does
// not hold, which both engines seed as written (conformance
// world-default-string).
func checkWorldDefaults(c *checker) {
	for _, v := range c.st.World {
		if v == nil {
			continue
		}
		ignoredWorldKeys(c, v)
		if !v.HasDefault || v.Default == nil {
			continue
		}
		typ := strings.ToLower(v.Type)
		if _, text := v.Default.(string); !text && v.Kind() != "" {
			// both engines seed it as written: `!world.ok` on a bool
			// key defaulting to 0 fails the turn upstream (uint64, not
			// bool), so does world.s + 'x' on a string defaulting to 3
			if what := setValueMismatch(c, v.Default, v.Kind(), v.Type); what != "" {
				a := kindArticle(v.Kind())
				c.rep.Warnf(v.Pos, ruleWorldDefault, "world %q: default %s, not a%s %s, on a type: %s key: both engines seed it as written, so a guard or template that reads it as a%s %s fails the turn (invalid operation) until a set: writes one; give a%s %s default, or declare the key with the type it holds", v.Name, what, a, v.Kind(), v.Type, a, v.Kind(), a, v.Kind())
			}
			continue
		}
		if s, ok := v.Default.(string); ok && story.IsTemplated(s) {
			// probed: upstream seeds "{{ world.n }}x"
			// as written, and a view or set that reads it gets that text
			c.rep.Warnf(v.Pos, ruleWorldDefault, "world %q: default %q is a template, which neither engine renders: both engines seed the text as written, braces and all, and a view or set: that reads the key gets that text (only a form choice's template renders such a value, once); give a literal default, and compute the value with a set: (in the root's on_enter, or where it is first needed)", v.Name, s)
			continue
		}
		switch typ {
		case "int", "integer", "float", "number", "bool", "boolean":
			s, ok := v.Default.(string)
			if !ok {
				continue
			}
			if typed, ok := parsesAs(s, typ); ok {
				c.rep.Warnf(v.Pos, ruleWorldDefault, "world %q: default %q is a string on a type: %s key: both engines seed the string, so a guard or expect_world comparing it with %s fails until a set: writes a typed value; write default: %s, a YAML %s", v.Name, s, v.Type, typed, typed, typ)
			} else {
				c.rep.Warnf(v.Pos, ruleWorldDefault, "world %q: default %q is not a%s %s: both engines seed the string as written; give a %s default, or declare the key type: string", v.Name, s, article(typ), v.Type, v.Type)
			}
		case "enum":
			if len(v.Values) == 0 {
				continue
			}
			d, vals := fmt.Sprint(v.Default), valueTexts(v.Values)
			if slices.Contains(vals, d) {
				continue
			}
			c.rep.Warnf(v.Pos, ruleWorldDefault, "world %q: default %q is not one of its values: [%s]; the key starts outside its enum (neither engine checks it): add it to values: or pick one of them", v.Name, d, strings.Join(vals, " "))
		}
	}
}

// article is "n" before a type name starting with a vowel sound.
func article(typ string) string {
	if strings.HasPrefix(typ, "int") {
		return "n"
	}
	return ""
}

// ignoredWorldKeys warns at a key of v's schema form spelled near type:,
// default: or values:: both engines read only those three and ignore the
// rest, so the typo leaves the key without what it meant to give.
func ignoredWorldKeys(c *checker, v *story.WorldVar) {
	for _, k := range slices.Sorted(maps.Keys(v.Ignored)) {
		if sug := c.suggest(k, []string{"type", "default", "values"}); sug != "" {
			c.rep.Warnf(v.Ignored[k], ruleWorldDefault, "world %q: key %q is ignored (both engines read only type:, default: and values: of a world entry), so the key has no %s:; did you mean `%s`?", v.Name, k, sug, sug)
		}
	}
}
