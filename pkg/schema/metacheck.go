package schema

import (
	"fmt"
	"strconv"
	"strings"

	"kitsoki/internal/lazyre"
)

// The schema self-check: what each draft's metaschema says about keyword
// values (types, ranges, uniqueness, URI and regex formats), written as
// code. A schema failing it is refused at compile time naming the file and
// the JSON pointer of the offending value.

type draft int

const (
	draft4    draft = 4
	draft6    draft = 6
	draft7    draft = 7
	draft2019 draft = 2019
	draft2020 draft = 2020
)

func (d draft) String() string {
	switch d {
	case draft4, draft6, draft7:
		return fmt.Sprintf("draft-0%d", int(d))
	case draft2019:
		return "draft 2019-09"
	}
	return "draft 2020-12"
}

// idKeyword is the keyword naming a schema resource.
func (d draft) idKeyword() string {
	if d == draft4 {
		return "id"
	}
	return "$id"
}

// draftOfURL maps a $schema value to a draft; false when it names none of
// the standard metaschemas.
func draftOfURL(s string) (draft, bool) {
	// A fragment is ignored, as the library did: the document named is
	// the draft's metaschema.
	s, _, _ = strings.Cut(s, "#")
	rest, ok := strings.CutPrefix(s, "http://")
	if !ok {
		rest, ok = strings.CutPrefix(s, "https://")
	}
	if !ok {
		return 0, false
	}
	switch rest {
	case "json-schema.org/schema", "json-schema.org/draft/2020-12/schema":
		return draft2020, true
	case "json-schema.org/draft/2019-09/schema":
		return draft2019, true
	case "json-schema.org/draft-07/schema":
		return draft7, true
	case "json-schema.org/draft-06/schema":
		return draft6, true
	case "json-schema.org/draft-04/schema":
		return draft4, true
	}
	return 0, false
}

// metaDraftOfURL maps a reference into the built-in metaschemas (a draft's
// schema or one of its vocabulary metaschemas, no fragment) to its draft.
func metaDraftOfURL(s string) (draft, bool) {
	if d, ok := draftOfURL(s); ok {
		return d, true
	}
	s = strings.TrimSuffix(s, "#")
	rest, ok := strings.CutPrefix(s, "http://")
	if !ok {
		rest, ok = strings.CutPrefix(s, "https://")
	}
	if !ok {
		return 0, false
	}
	switch {
	case strings.HasPrefix(rest, "json-schema.org/draft/2020-12/meta/"):
		switch strings.TrimPrefix(rest, "json-schema.org/draft/2020-12/meta/") {
		case "core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "format-assertion", "content":
			return draft2020, true
		}
	case strings.HasPrefix(rest, "json-schema.org/draft/2019-09/meta/"):
		switch strings.TrimPrefix(rest, "json-schema.org/draft/2019-09/meta/") {
		case "core", "applicator", "validation", "meta-data", "format", "content":
			return draft2019, true
		}
	}
	return 0, false
}

// schemaIssue is one self-check failure: where and what.
type schemaIssue struct {
	ptr string // JSON pointer of the offending value inside the document
	msg string
}

var (
	anchor2019 = &lazyre.Regexp{Expr: `^[A-Za-z][-A-Za-z0-9.:_]*$`}
	anchor2020 = &lazyre.Regexp{Expr: `^[A-Za-z_][-A-Za-z0-9._]*$`}
)

// metaCheck walks a schema document the way its draft's metaschema does
// and returns the first issue (keywords in sorted order), or nil.
func metaCheck(v any, ptr string, d draft) *schemaIssue {
	obj, isObj := v.(map[string]any)
	if !isObj {
		if _, isBool := v.(bool); isBool && d >= draft6 {
			return nil
		}
		want := "an object or a boolean"
		if d == draft4 {
			want = "an object (draft-04 has no boolean schemas)"
		}
		return &schemaIssue{ptr, fmt.Sprintf("a schema must be %s, got %s", want, describeJSON(v))}
	}
	// An embedded resource may name its own draft.
	if ptr != "" {
		d = embeddedDraft(obj, d)
	}
	for _, kw := range sortedKeys(obj) {
		if is := checkKeywordIn(obj, kw, ptr, d); is != nil {
			return is
		}
	}
	return nil
}

// embeddedDraft is the draft of a subschema: its own when it names a
// standard one in $schema and is a resource by that draft's id keyword
// ("id" for draft-04, else "$id"), the enclosing draft otherwise.
func embeddedDraft(obj map[string]any, enclosing draft) draft {
	s, ok := obj["$schema"].(string)
	if !ok {
		return enclosing
	}
	d, known := draftOfURL(s)
	if !known {
		return enclosing
	}
	if id, ok := obj[d.idKeyword()].(string); !ok || id == "" {
		return enclosing
	}
	return d
}

func describeJSON(v any) string {
	switch x := v.(type) {
	case string:
		return "string " + strconv.Quote(x)
	case nil:
		return "null"
	case bool:
		return "boolean " + strconv.FormatBool(x)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	if typeOf(v) == tNumber {
		return "number " + fmt.Sprint(v)
	}
	return fmt.Sprintf("%T", v)
}

func issuef(ptr, kw, format string, args ...any) *schemaIssue {
	return &schemaIssue{ptr, fmt.Sprintf("%q ", strings.TrimSuffix(kw, "[]")) + fmt.Sprintf(format, args...)}
}

func checkType(v any, k *kwValue) *schemaIssue {
	const names = `"array", "boolean", "integer", "null", "number", "object" or "string"`
	switch x := v.(type) {
	case string:
		if typeNamed(x) == 0 {
			return issuef(k.ptr(), "type", "must be one of %s, got %q", names, x)
		}
		return nil
	case []any:
		if len(x) == 0 {
			return issuef(k.ptr(), "type", "must list at least one type")
		}
		for i, e := range x {
			s, ok := e.(string)
			if !ok || typeNamed(s) == 0 {
				return issuef(k.ptr()+"/"+strconv.Itoa(i), "type", "entries must be one of %s, got %s", names, describeJSON(e))
			}
		}
		if i, j := firstDuplicate(x); i >= 0 {
			return issuef(k.ptr(), "type", "lists %s twice (items %d and %d)", displayValue(x[i]), i, j)
		}
		return nil
	}
	return issuef(k.ptr(), "type", "must be a type name (%s) or an array of them, got %s", names, describeJSON(v))
}
