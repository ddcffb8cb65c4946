package flowtest

import (
	"fmt"
	"strconv"
	"strings"
)

// worldTypes warns at an initial_world or world_override value the
// story's declared type of the key does not hold (a string or null on an
// int, float or bool key, a scalar or list on an object key, a scalar or
// mapping on a list key):
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
		v := l.ix.world[kv.Key]
		if v == nil {
			continue
		}
		kind := v.Kind()
		if kind == "" || kind == "string" {
			continue
		}
		at := where + "." + kv.Key
		s, isText := kv.Value.(string)
		switch {
		case kind == "object" || kind == "list":
			if what := shapeMismatch(kv.Value, kind); what != "" {
				l.warn(kv.Pos, ruleWorldType, "%s: %s, and the story declares %s type: %s; the runner sets it as written, so a guard or template that reads %s of it (world.%s%s) fails the turn; write a %s, or leave the key out to keep its default",
					at, what, kv.Key, v.Type, map[string]string{"object": "a field", "list": "an item"}[kind], kv.Key, map[string]string{"object": ".field", "list": "[0]"}[kind], map[string]string{"object": "mapping", "list": "list"}[kind])
			}
		case kv.Value == nil:
			l.warn(kv.Pos, ruleWorldType, "%s: null, and the story declares %s type: %s; the key then holds nil, not its default, so a guard comparing it as a%s %s fails the turn (invalid operation: <nil> > int); %s, or leave the key out to keep its default",
				at, kv.Key, v.Type, article(kind), kind, valueFix[kind])
		case isText:
			fix := valueFix[kind] + " without quotes"
			if parsesAsKind(s, kind) {
				fix = "write " + s + " without quotes"
			}
			l.warn(kv.Pos, ruleWorldType, "%s: %q is a string, and the story declares %s type: %s; the runner sets it as written (neither engine converts it), so a guard or template that reads it as a%s %s fails the turn or compares false; %s",
				at, s, kv.Key, v.Type, article(kind), kind, fix)
		}
	}
}

// valueFix is how to write a value of a scalar kind.
var valueFix = map[string]string{"int": "write an integer", "float": "write a number", "bool": "write true or false"}

// shapeMismatch describes a value an object or list key cannot hold as
// one ("" when it can; null clears it).
func shapeMismatch(val any, kind string) string {
	switch val.(type) {
	case nil:
		return ""
	case map[string]any:
		if kind == "object" {
			return ""
		}
		return "a mapping"
	case []any:
		if kind == "list" {
			return ""
		}
		return "a list"
	case string:
		return fmt.Sprintf("%q is a string", val)
	case bool:
		return fmt.Sprintf("%v is a bool", val)
	}
	return fmt.Sprintf("%v is a number", val)
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
