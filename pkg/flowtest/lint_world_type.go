package flowtest

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
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
			l.warn(kv.Pos, ruleWorldType, "%s: %q is a string, and the story declares %s type: %s; the runner sets it as written (neither engine converts it), so a guard or template that reads it as a%s %s fails the turn or compares false; %s",
				at, s, kv.Key, v.Type, article(kind), kind, textFix(s, kind))
		}
	}
}

// textFix is how to write text s as a value of a scalar kind: without
// its quotes when the fixture decoder would then read it as one, else in
// a form it does read (a plain 1e20 is text already: it wants a point).
func textFix(s, kind string) string {
	if !parsesAsKind(s, kind) {
		return valueFix[kind] + " without quotes"
	}
	if _, text := plainScalar(s).(string); !text {
		return "write " + s + " without quotes"
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && kind == "float" {
		c := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.Contains(c, ".") {
			if i := strings.IndexByte(c, 'e'); i >= 0 {
				c = c[:i] + ".0" + c[i:]
			} else {
				c += ".0"
			}
		}
		if _, isFloat := plainScalar(c).(float64); isFloat {
			return "write " + c + " (the fixture decoder reads " + s + " as text, quoted or not)"
		}
	}
	return valueFix[kind] + " the fixture decoder reads as one (it reads " + s + " as text, quoted or not)"
}

// plainScalar is s written unquoted, as the fixture decoder reads it.
func plainScalar(s string) any {
	return scalarValue(&yaml.Node{Kind: yaml.ScalarNode, Value: s})
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
