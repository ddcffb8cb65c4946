package host

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"kitsoki/internal/jsonvalue"
)

// domainErr builds a domain-error Result (on_error applies; no data).
func domainErr(format string, a ...any) Result {
	return Result{Error: fmt.Sprintf(format, a...)}
}

// strArg returns args[key] when it is a string, else "": as upstream's
// built-ins read a text argument, a number, bool, list, map or null given
// for one is absent (conformance host-args-typed).
func strArg(args map[string]any, key string) string {
	s, _ := args[key].(string)
	return s
}

func stringify(v any) string { return jsonText(v, json.Marshal) }

// boolArg reads a boolean argument: only the boolean true is true; a
// string ("true", "1") is not, as upstream (conformance
// host-run-fail-on-error-bool).
func boolArg(args map[string]any, key string) bool {
	b, _ := args[key].(bool)
	return b
}

// bodyText renders a body argument: strings as they are, maps and lists
// as JSON indented by two spaces, anything else in its fmt form.
func bodyText(v any) string {
	return jsonText(v, func(v any) ([]byte, error) { return json.MarshalIndent(v, "", "  ") })
}

// jsonText is v as text: nil is "", a string itself, a map or list its
// JSON by marshal, anything else (or what marshal refuses) its fmt form.
func jsonText(v any, marshal func(any) ([]byte, error)) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case map[string]any, []any:
		if b, err := marshal(t); err == nil {
			return string(b)
		}
	}
	return fmt.Sprint(v)
}

// durationArg reads a timeout as upstream's host.run does: a string,
// trimmed, is a Go duration ("1m30s"), else the seconds its leading number
// gives ("30", "1.5", and "2d" or "3 s" as 2 and 3: fmt's %f reads the
// number and ignores the rest), else "cannot parse"; a float is seconds, and
// so is an int or int64. A uint64 (a YAML whole number that is not
// negative) is refused, as upstream refuses it (conformance run-int-uint64).
// A value that is not positive is refused with upstream's text, the duration quoted, a number as %v. A
// NaN or infinite number of seconds, or one below a nanosecond, runs with
// no timeout, as upstream (conformance host-run-timeout-forms), and so
// does a string that is blank.
func durationArg(handler string, v any) (time.Duration, error) {
	notPositive := func(format string, a any) error {
		return fmt.Errorf("%s: timeout must be positive, got "+format, handler, a)
	}
	seconds := func(f float64) (time.Duration, error) {
		switch {
		case math.IsNaN(f) || math.IsInf(f, 1):
			return 0, nil
		case f <= 0:
			return 0, notPositive("%v", f)
		case f > float64(math.MaxInt64/int64(time.Second)):
			return 0, nil
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	if _, ok := v.(uint64); ok {
		return 0, fmt.Errorf("%s: %s", handler, UintTimeoutRefusal)
	}
	if n, ok := jsonvalue.Integer(v); ok {
		if n <= 0 {
			return 0, notPositive("%v", n)
		}
		return seconds(float64(n))
	}
	switch t := v.(type) {
	case float32:
		return seconds(float64(t))
	case float64:
		return seconds(t)
	case string:
		s := strings.TrimSpace(t)
		if s == "" {
			return 0, nil // blank: no timeout, as upstream (conformance host-run-timeout-blank)
		}
		if d, err := time.ParseDuration(s); err == nil {
			if d <= 0 {
				return 0, notPositive("%q", s)
			}
			return d, nil
		}
		var f float64
		if _, err := fmt.Sscanf(s, "%f", &f); err == nil {
			return seconds(f)
		}
		return 0, fmt.Errorf("%s: timeout: cannot parse %q as duration or seconds", handler, s)
	}
	return 0, fmt.Errorf("%s: timeout must be a number or duration string, got %T", handler, v)
}

// describe is a value of the wrong type for an argument of kitsoki's own
// handlers: the value as JSON and its JSON type ("[1] (list)").
func describe(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	text := fmt.Sprint(v)
	if b, err := json.Marshal(v); err == nil {
		text = string(b)
	}
	return fmt.Sprintf("%s (%s)", text, jsonvalue.Kind(v))
}

// intArg reads a positive-or-zero integer argument with a default.
func intArg(handler string, args map[string]any, key string, def int) (int, error) {
	v, ok := args[key]
	if !ok || v == nil {
		return def, nil
	}
	if n, ok := jsonvalue.Integer(v); ok && n >= 0 && n <= math.MaxInt32 {
		return int(n), nil
	}
	switch t := v.(type) {
	case float64:
		if t >= 0 && t == math.Trunc(t) && t <= math.MaxInt32 {
			return int(t), nil
		}
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(t)); err == nil && n >= 0 {
			return n, nil
		}
	}
	return 0, fmt.Errorf("%s: %s must be a non-negative integer, got %s", handler, key, describe(v))
}

// floatArg reads a number argument with a default.
func floatArg(handler string, args map[string]any, key string, def float64) (float64, error) {
	v, ok := args[key]
	if !ok || v == nil {
		return def, nil
	}
	if n, ok := jsonvalue.Integer(v); ok {
		return float64(n), nil
	}
	switch t := v.(type) {
	case float64:
		if !math.IsNaN(t) {
			return t, nil
		}
	case float32:
		return float64(t), nil
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(t), 64); err == nil && !math.IsNaN(f) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("%s: %s must be a number, got %s", handler, key, describe(v))
}

// now is the call's clock.
func (e *Env) now() time.Time {
	if e != nil && e.Now != nil {
		return e.Now()
	}
	return time.Now()
}
