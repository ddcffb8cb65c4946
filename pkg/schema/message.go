package schema

import (
	"fmt"
	"strconv"
	"strings"
)

// Message texts keep the wording story authors and upstream reports know
// ("missing property 'a'", "maximum: got 5, want 1", "got null, want
// object"), numbers printed the English way: integers with thousands
// separators, others in shortest form with ×10ⁿ beyond six digits.

// groupInt writes n with thousands separators ("12,345").
func groupInt(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			sb.WriteByte(',')
		}
		sb.WriteRune(c)
	}
	return sb.String()
}

var superscript = map[byte]string{
	'0': "⁰", '1': "¹", '2': "²", '3': "³", '4': "⁴", '5': "⁵", '6': "⁶", '7': "⁷", '8': "⁸", '9': "⁹", '-': "⁻",
}

// englishFloat prints f as the reports do: "0.5", "1,234.5", "1×10²¹",
// "1×10⁻⁰⁶", "-Inf" stays "-Inf".
func englishFloat(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	switch s {
	case "+Inf":
		return "∞"
	case "-Inf":
		return "-∞"
	case "NaN":
		return s
	}
	mant, exp, hasExp := strings.Cut(s, "e")
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	intPart, frac, hasFrac := strings.Cut(mant, ".")
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	if hasExp {
		sb.WriteString(intPart)
	} else {
		n, _ := strconv.Atoi(intPart)
		sb.WriteString(groupInt(n))
	}
	if hasFrac {
		sb.WriteByte('.')
		sb.WriteString(frac)
	}
	if hasExp {
		sb.WriteString("×10")
		exp = strings.TrimPrefix(exp, "+")
		for i := 0; i < len(exp); i++ {
			sb.WriteString(superscript[exp[i]])
		}
	}
	return sb.String()
}

// quoteName quotes s with single quotes, escaping as Go would.
func quoteName(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q, `\"`, `"`)
	q = strings.ReplaceAll(q, `'`, `\'`)
	return "'" + q[1:len(q)-1] + "'"
}

func joinQuoted(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = quoteName(n)
	}
	return strings.Join(parts, ", ")
}

// displayValue prints a primitive JSON value for a message ("value" for
// arrays and objects).
func displayValue(v any) string {
	switch x := v.(type) {
	case string:
		return quoteName(x)
	case []any, map[string]any:
		return "value"
	case nil:
		return "<nil>"
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprintf("%v", v)
}
