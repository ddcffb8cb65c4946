package yamlfast

import (
	"strconv"
	"strings"
	"time"
)

// Tags yaml.v3 gives untagged nodes.
const (
	tagNull      = "!!null"
	tagBool      = "!!bool"
	tagStr       = "!!str"
	tagInt       = "!!int"
	tagFloat     = "!!float"
	tagTimestamp = "!!timestamp"
	tagMerge     = "!!merge"
	tagSeq       = "!!seq"
	tagMap       = "!!map"
)

// plainTag returns the tag yaml.v3 resolves an untagged plain scalar s to,
// following its resolver decision by decision.
func plainTag(s string) string {
	if s == "" {
		return tagNull
	}
	c := s[0]
	if strings.IndexByte("+-0123456789.yYnNtTfFoO~<", c) < 0 {
		return tagStr
	}
	if t := fixedWord(s); t != "" {
		return t
	}
	switch {
	case c == '.':
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return tagFloat
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		return numberTag(s)
	}
	return tagStr
}

// fixedWord returns the tag of a word yaml.v3 resolves by table, else "".
func fixedWord(s string) string {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return tagBool
	case "~", "null", "Null", "NULL":
		return tagNull
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return tagFloat
	case "<<":
		return tagMerge
	}
	return ""
}

// numberTag resolves a plain scalar starting with a sign or a digit.
func numberTag(s string) string {
	if isTimestamp(s) {
		return tagTimestamp
	}
	plain := s
	if strings.IndexByte(s, '_') >= 0 {
		plain = strings.ReplaceAll(s, "_", "")
	}
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return tagInt
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return tagInt
	}
	if yamlFloatSyntax(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return tagFloat
		}
	}
	for _, r := range [...]struct {
		prefix string
		base   int
	}{{"0b", 2}, {"0o", 8}} {
		if rest, ok := strings.CutPrefix(plain, r.prefix); ok && intIn(rest, r.base) {
			return tagInt
		}
		if rest, ok := strings.CutPrefix(plain, "-"+r.prefix); ok {
			if _, err := strconv.ParseInt("-"+rest, r.base, 64); err == nil {
				return tagInt
			}
		}
	}
	return tagStr
}

// intIn reports whether s parses as a signed or unsigned 64-bit int in base.
func intIn(s string, base int) bool {
	if _, err := strconv.ParseInt(s, base, 64); err == nil {
		return true
	}
	_, err := strconv.ParseUint(s, base, 64)
	return err == nil
}

// yamlFloatSyntax reports whether s has the shape yaml.v3 accepts as a
// float: [-+]? ( "." digits | digits ( "." digits* )? ) ( [eE] [-+]? digits )?
func yamlFloatSyntax(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// timestampLayouts are the layouts yaml.v3 tries for "dddd-..." plain scalars.
var timestampLayouts = [...]string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// isTimestamp reports whether yaml.v3 resolves s as a !!timestamp.
func isTimestamp(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, layout := range timestampLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}
