package fold

import (
	"sort"
	"strconv"
	"strings"
)

// encodeOverride writes doc as yaml.Marshal does (block style, four-space
// indentation, sorted keys, the same scalar styles), byte for byte, for
// the values it knows it writes the same: maps with lower-case keys,
// lists, ints, bools, nil and strings of printable ASCII whose style is
// plain, quoted or a literal block without a keep (+) chomping or an
// indentation indicator. For anything else it returns false and the
// caller marshals doc (override_yaml_test.go checks the bytes against
// yaml.Marshal's).
func encodeOverride(doc map[string]any) ([]byte, bool) {
	e := &overrideEncoder{b: make([]byte, 0, 512)}
	if len(doc) == 0 || !e.mapping(doc, 0, false) {
		return nil, false
	}
	return e.b, true
}

type overrideEncoder struct{ b []byte }

func (e *overrideEncoder) pad(n int) {
	for ; n > 0; n-- {
		e.b = append(e.b, ' ')
	}
}

// mapping writes a non-empty map whose keys start at column col; inItem
// means its first key follows a list item's "- " on the same line.
func (e *overrideEncoder) mapping(m map[string]any, col int, inItem bool) bool {
	keys := make([]string, 0, len(m))
	for k := range m {
		if !lowerKey(k) {
			return false
		}
		keys = append(keys, k)
	}
	sort.Strings(keys) // yaml.v3's key order for keys of [a-z_]
	for i, k := range keys {
		if i > 0 || !inItem {
			e.pad(col)
		}
		if !e.scalar(k, col, false) {
			return false
		}
		e.b = append(e.b, ':')
		if !e.value(m[k], col, true) {
			return false
		}
	}
	return true
}

// value writes v after a key's ':' (afterKey, the key at column col) or a
// list item's '-' (the item at column col), with its line break.
func (e *overrideEncoder) value(v any, col int, afterKey bool) bool {
	child := col + 2 // under a list item: past its "- "
	if afterKey {
		child = 4 * ((col + 4) / 4)
	}
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			e.b = append(e.b, " {}\n"...)
			return true
		}
		if afterKey {
			e.b = append(e.b, '\n')
			return e.mapping(x, child, false)
		}
		e.b = append(e.b, ' ')
		return e.mapping(x, child, true)
	case []any:
		if len(x) == 0 {
			e.b = append(e.b, " []\n"...)
			return true
		}
		if afterKey {
			e.b = append(e.b, '\n')
			return e.sequence(x, child, false)
		}
		e.b = append(e.b, ' ')
		return e.sequence(x, child, true)
	}
	e.b = append(e.b, ' ')
	if s, ok := v.(string); ok && strings.Contains(s, "\n") {
		if !afterKey {
			return false
		}
		return e.literal(s, child)
	}
	if !e.scalar(v, col, true) {
		return false
	}
	e.b = append(e.b, '\n')
	return true
}

// sequence writes a non-empty list whose items' "- " start at column col
// (inItem: the first follows an outer item's "- " on the same line).
func (e *overrideEncoder) sequence(list []any, col int, inItem bool) bool {
	for i, v := range list {
		if i > 0 || !inItem {
			e.pad(col)
		}
		e.b = append(e.b, '-')
		if !e.value(v, col, false) {
			return false
		}
	}
	return true
}

// scalar writes a one-line scalar (a key when !isValue).
func (e *overrideEncoder) scalar(v any, col int, isValue bool) bool {
	switch x := v.(type) {
	case nil:
		e.b = append(e.b, "null"...)
	case bool:
		e.b = strconv.AppendBool(e.b, x)
	case int:
		e.b = strconv.AppendInt(e.b, int64(x), 10)
	case string:
		return e.str(x)
	default:
		return false
	}
	return true
}

// str writes a one-line string plain, single-quoted or double-quoted, as
// yaml.v3 picks (resolve, isOldBool, the emitter's analysis), for the
// strings where that pick is known here.
func (e *overrideEncoder) str(s string) bool {
	if s == "" {
		e.b = append(e.b, `""`...)
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	c := s[0]
	switch {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		switch strings.ToLower(s) {
		case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
			if len(s) > 40 || !knownSpecial[s] {
				return false
			}
			e.b = append(e.b, '"')
			e.b = append(e.b, s...)
			e.b = append(e.b, '"')
			return true
		}
		if strings.Contains(s, ": ") || strings.Contains(s, " #") || s[len(s)-1] == ':' || s[len(s)-1] == ' ' {
			e.single(s)
			return true
		}
		e.b = append(e.b, s...)
		return true
	case strings.IndexByte("#,[]{}&*!|>'\"%@`", c) >= 0:
		e.single(s)
		return true
	}
	return false
}

// knownSpecial are the spellings yaml.v3 reads as a bool or null (resolve)
// or as a YAML 1.1 bool (isOldBool): it double-quotes them.
var knownSpecial = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "n": true, "N": true, "no": true, "No": true, "NO": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
	"true": true, "True": true, "TRUE": true, "false": true, "False": true, "FALSE": true,
	"null": true, "Null": true, "NULL": true,
}

func (e *overrideEncoder) single(s string) {
	e.b = append(e.b, '\'')
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			e.b = append(e.b, '\'')
		}
		e.b = append(e.b, s[i])
	}
	e.b = append(e.b, '\'')
}

// literal writes a string holding a line break as a literal block ("|"
// for one final break, "|-" for none) with its lines at column col; other
// shapes (leading space or break, several final breaks, a space before a
// break, a tab) are left to yaml.Marshal.
func (e *overrideEncoder) literal(s string, col int) bool {
	if s[0] == ' ' || s[0] == '\n' || strings.HasSuffix(s, "\n\n") || strings.Contains(s, " \n") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '\n' && (s[i] < 0x20 || s[i] > 0x7e) {
			return false
		}
	}
	body := s
	if strings.HasSuffix(s, "\n") {
		e.b = append(e.b, "|\n"...)
		body = s[:len(s)-1]
	} else {
		if s[len(s)-1] == ' ' {
			return false
		}
		e.b = append(e.b, "|-\n"...)
	}
	for _, line := range strings.Split(body, "\n") {
		if line != "" {
			e.pad(col)
			e.b = append(e.b, line...)
		}
		e.b = append(e.b, '\n')
	}
	return true
}

// lowerKey reports whether k is a non-empty run of [a-z_] (keys whose
// yaml.v3 order is byte order).
func lowerKey(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !(k[i] >= 'a' && k[i] <= 'z' || k[i] == '_') {
			return false
		}
	}
	return true
}
