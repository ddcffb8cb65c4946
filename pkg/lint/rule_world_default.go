package lint

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/diag"
)

var ruleWorldDefault = &Rule{ID: "world-default", Severity: diag.Warning, LintOnly: true,
	Summary: "a world default the declared type does not hold: a quoted default on an int, float or bool key stays a string (guards and expect_world compare it as one), an enum default outside its values:",
	Example: "world: {n: {type: int, default: \"0\"}}"}

// checkWorldDefaults warns at a world key whose default its type: does
// not hold, which both engines seed as written (conformance
// world-default-string).
func checkWorldDefaults(c *checker) {
	for _, v := range c.st.World {
		if v == nil || !v.HasDefault || v.Default == nil {
			continue
		}
		typ := strings.ToLower(v.Type)
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
