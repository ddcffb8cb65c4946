package flowtest

import (
	"fmt"
	"strconv"
	"strings"
)

// worldTypes warns at an initial_world or world_override value written
// as a string where the story declares the key an int, float or bool:
// neither engine converts a fixture's world values, so the key holds the
// text, and a guard comparing it as a number fails the turn ("invalid
// operation: string > int"); an == against a number is false (probed
// with the existing engine: n: "3" on a type: int key fails `world.n > 2`
// from initial_world and from a turn's world_override alike).
func (l *fixtureLint) worldTypes() {
	l.worldTypesOf(l.fx.InitialWorld, "initial_world")
	for _, t := range l.fx.Turns {
		l.worldTypesOf(t.WorldOverride, fmt.Sprintf("turns[%d].world_override", t.Index))
	}
}

func (l *fixtureLint) worldTypesOf(kvs []KV, where string) {
	for _, kv := range kvs {
		s, ok := kv.Value.(string)
		v := l.root.Var(kv.Key)
		if !ok || v == nil {
			continue
		}
		kind := typedKind(v.Type)
		if kind == "" {
			continue
		}
		fix := map[string]string{"int": "write an integer", "float": "write a number", "bool": "write true or false"}[kind] + " without quotes"
		if parsesAsKind(s, kind) {
			fix = "write " + s + " without quotes"
		}
		l.warn(kv.Pos, ruleWorldType, "%s.%s: %q is a string, and the story declares %s type: %s; the runner sets it as written (neither engine converts it), so a guard or template that reads it as a%s %s fails the turn or compares false; %s",
			where, kv.Key, s, kv.Key, v.Type, article(kind), kind, fix)
	}
}

// typedKind folds a declared world type to int, float or bool ("" for
// one a string may hold).
func typedKind(typ string) string {
	switch strings.ToLower(strings.TrimSpace(typ)) {
	case "int", "integer":
		return "int"
	case "float", "number":
		return "float"
	case "bool", "boolean":
		return "bool"
	}
	return ""
}

// parsesAsKind reports whether s, unquoted, is a value of kind.
func parsesAsKind(s, kind string) bool {
	switch kind {
	case "int":
		_, err := strconv.ParseInt(s, 10, 64)
		return err == nil
	case "float":
		_, err := strconv.ParseFloat(s, 64)
		return err == nil && strings.TrimSpace(s) == s
	case "bool":
		return s == "true" || s == "false"
	}
	return false
}

func article(kind string) string {
	if kind == "int" {
		return "n"
	}
	return ""
}
