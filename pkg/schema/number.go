package schema

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// decimal is an exact JSON number: (-1)^neg × digits × 10^exp, with digits
// free of leading and trailing zeros ("" for zero). Comparisons never
// expand the exponent, so a hostile 1e999999999 costs no more than 1e9.
type decimal struct {
	neg    bool
	digits string
	exp    int64
}

// parseDecimal reads a JSON-number-like text ("-1.5e3", "0.1", "1e+21").
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if s == "" {
		return d, false
	}
	i := 0
	if s[0] == '-' || s[0] == '+' {
		d.neg = s[0] == '-'
		i++
	}
	var mant strings.Builder
	var frac int64
	seenDigit, seenDot := false, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
			mant.WriteByte(c)
			if seenDot {
				frac++
			}
		case c == '.' && !seenDot:
			seenDot = true
		default:
			goto exponent
		}
	}
exponent:
	if !seenDigit {
		return d, false
	}
	var e int64
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return d, false
		}
		v, err := strconv.ParseInt(strings.TrimPrefix(s[i+1:], "+"), 10, 64)
		if err != nil {
			// An exponent beyond int64 saturates: the value is then
			// either enormous or zero for every practical comparison.
			rest := s[i+1:]
			if rest == "" || strings.ContainsFunc(strings.TrimLeft(rest, "+-"), func(r rune) bool { return r < '0' || r > '9' }) {
				return d, false
			}
			if strings.HasPrefix(rest, "-") {
				v = math.MinInt64 / 4
			} else {
				v = math.MaxInt64 / 4
			}
		}
		e = v
		if e > math.MaxInt64/4 {
			e = math.MaxInt64 / 4
		} else if e < math.MinInt64/4 {
			e = math.MinInt64 / 4
		}
	}
	m := strings.TrimLeft(mant.String(), "0")
	trail := len(m) - len(strings.TrimRight(m, "0"))
	m = m[:len(m)-trail]
	if m == "" {
		return decimal{}, true
	}
	d.digits = m
	d.exp = e - frac + int64(trail)
	return d, true
}

// toDecimal converts a decoded JSON number of any Go numeric type.
func toDecimal(v any) (decimal, bool) {
	switch n := v.(type) {
	case json.Number:
		return parseDecimal(string(n))
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return decimal{}, false
		}
		return parseDecimal(strconv.FormatFloat(n, 'g', -1, 64))
	case float32:
		f := float64(n)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return decimal{}, false
		}
		return parseDecimal(strconv.FormatFloat(f, 'g', -1, 32))
	case int:
		return parseDecimal(strconv.FormatInt(int64(n), 10))
	case int8:
		return parseDecimal(strconv.FormatInt(int64(n), 10))
	case int16:
		return parseDecimal(strconv.FormatInt(int64(n), 10))
	case int32:
		return parseDecimal(strconv.FormatInt(int64(n), 10))
	case int64:
		return parseDecimal(strconv.FormatInt(n, 10))
	case uint:
		return parseDecimal(strconv.FormatUint(uint64(n), 10))
	case uint8:
		return parseDecimal(strconv.FormatUint(uint64(n), 10))
	case uint16:
		return parseDecimal(strconv.FormatUint(uint64(n), 10))
	case uint32:
		return parseDecimal(strconv.FormatUint(uint64(n), 10))
	case uint64:
		return parseDecimal(strconv.FormatUint(n, 10))
	}
	return decimal{}, false
}

func (d decimal) isZero() bool    { return d.digits == "" }
func (d decimal) isInteger() bool { return d.isZero() || d.exp >= 0 }

// cmp compares d and o: -1, 0 or +1.
func (d decimal) cmp(o decimal) int {
	switch {
	case d.isZero() && o.isZero():
		return 0
	case d.isZero():
		if o.neg {
			return 1
		}
		return -1
	case o.isZero():
		if d.neg {
			return -1
		}
		return 1
	case d.neg != o.neg:
		if d.neg {
			return -1
		}
		return 1
	}
	c := cmpMagnitude(d, o)
	if d.neg {
		return -c
	}
	return c
}

// cmpMagnitude compares |d| and |o|, both nonzero.
func cmpMagnitude(d, o decimal) int {
	// The position of the leading digit decides first.
	ld := int64(len(d.digits)) + d.exp
	lo := int64(len(o.digits)) + o.exp
	if ld != lo {
		if ld < lo {
			return -1
		}
		return 1
	}
	// Same magnitude: compare digit strings left-aligned.
	n := max(len(d.digits), len(o.digits))
	for i := 0; i < n; i++ {
		a, b := byte('0'), byte('0')
		if i < len(d.digits) {
			a = d.digits[i]
		}
		if i < len(o.digits) {
			b = o.digits[i]
		}
		if a != b {
			if a < b {
				return -1
			}
			return 1
		}
	}
	return 0
}

// multipleOf reports whether d / m is an integer (m nonzero).
func (d decimal) multipleOf(m decimal) bool {
	if d.isZero() {
		return true
	}
	if m.isZero() {
		return false
	}
	a, _ := new(big.Int).SetString(d.digits, 10)
	b, _ := new(big.Int).SetString(m.digits, 10)
	k := d.exp - m.exp
	if k < 0 {
		// a / (b × 10^-k): digits carry no trailing zero, so a is not
		// divisible by 10 and no positive power of ten divides it.
		return false
	}
	// (a × 10^k) mod b == 0, with 10^k taken modulo b.
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(k), b)
	p.Mul(p, a)
	return p.Mod(p, b).Sign() == 0
}

// float64 approximates d for messages (±Inf beyond range).
func (d decimal) float64() float64 {
	if d.isZero() {
		return 0
	}
	s := d.digits + "e" + strconv.FormatInt(d.exp, 10)
	if d.neg {
		s = "-" + s
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// canonical is a text equal for equal numbers (1, 1.0 and 10e-1 alike).
func (d decimal) canonical() string {
	if d.isZero() {
		return "0"
	}
	s := d.digits + "e" + strconv.FormatInt(d.exp, 10)
	if d.neg {
		return "-" + s
	}
	return s
}
