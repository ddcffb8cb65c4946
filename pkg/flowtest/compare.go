package flowtest

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"reflect"
	"slices"

	"kitsoki/internal/human"
	"kitsoki/internal/jsonvalue"
)

// equal is the fixture comparison rule (flow-format.md §3.3): nested
// values exact, map key order irrelevant, lists order-sensitive, numbers
// equal when their values are (3 == 3.0), "3" != 3, "" != null. Upstream
// compares JSON bytes, so a float's -0 differs from 0 (conformance
// signed-zero-world).
func equal(a, b any) bool {
	return equalNorm(norm(a), norm(b))
}

// worldEqual is equal as upstream's world checks compare (flow-format.md
// §3.3): a value holding NaN or an infinity cannot be written as JSON
// there, so the two sides' %v forms (Go's, of the decoded YAML:
// map[k:v], [a b], <nil>) are compared instead: NaN equals NaN,
// and the text "NaN" or "+Inf" equals the float (conformance
// world-nonfinite-text).
func worldEqual(got, want any) bool {
	if jsonvalue.HasNonFinite(got) || jsonvalue.HasNonFinite(want) {
		return fmt.Sprint(got) == fmt.Sprint(want)
	}
	return equal(got, want)
}

// norm turns any value into the plain JSON model, numbers as *big.Float
// (float64 for NaN and infinities).
func norm(v any) any { return normalize(v, false) }

// normPayload is norm keeping a nil map or list null, as upstream's
// report records `slots: null`, which fixtures match.
func normPayload(v any) any { return normalize(v, true) }

func normalize(v any, nilNull bool) any {
	switch t := v.(type) {
	case map[string]any:
		if t == nil && nilNull {
			return nil
		}
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = normalize(x, nilNull)
		}
		return out
	case []any:
		if t == nil && nilNull {
			return nil
		}
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = normalize(x, nilNull)
		}
		return out
	case nil, string, bool:
		return t
	case num:
		return t
	case int:
		return num(new(big.Float).SetInt64(int64(t)))
	case int64:
		return num(new(big.Float).SetInt64(t))
	case int32:
		return num(new(big.Float).SetInt64(int64(t)))
	case uint64:
		return num(new(big.Float).SetUint64(t))
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return t
		}
		return num(new(big.Float).SetFloat64(t))
	case float32:
		return norm(float64(t))
	case json.Number:
		f, ok := new(big.Float).SetString(t.String())
		if !ok {
			return t.String()
		}
		return num(f)
	}
	// Anything else: through JSON.
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	var out any
	if jsonvalue.OneExact(b, &out) != nil { // numbers as json.Number
		return string(b)
	}
	return norm(out)
}

type num *big.Float

func equalNorm(a, b any) bool {
	switch x := a.(type) {
	case num:
		y, ok := b.(num)
		return ok && (*big.Float)(x).Cmp((*big.Float)(y)) == 0 && (*big.Float)(x).Signbit() == (*big.Float)(y).Signbit()
	case map[string]any:
		y, ok := b.(map[string]any)
		return ok && maps.EqualFunc(x, y, equalNorm)
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, equalNorm)
	}
	return reflect.DeepEqual(a, b)
}

// show renders a value for a failure message: JSON (sorted keys, with <,
// > and & as written, not \u003c), or %v.
func show(v any) string {
	b, err := jsonvalue.MarshalNoHTML(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// typedGotWant is "got 3 (number), want "3" (string)": both values as
// JSON with their JSON types.
func typedGotWant(got, want any) string {
	return fmt.Sprintf("got %s (%s), want %s (%s)", clip(show(got)), jsonvalue.Kind(norm(got)), clip(show(want)), jsonvalue.Kind(norm(want)))
}

// nestedDiff is diffValue when either side is a map or a list, else nil.
func nestedDiff(path string, got, want any) []string {
	if nested := []string{jsonvalue.KindObject, jsonvalue.KindList}; slices.Contains(nested, jsonvalue.Kind(norm(got))) || slices.Contains(nested, jsonvalue.Kind(norm(want))) {
		return diffValue(path, got, want)
	}
	return nil
}

// diffValue is the minimal difference between want and got, as lines
// "path: got X, want Y" (a nested map reports only the differing keys).
func diffValue(path string, got, want any) []string {
	g, w := norm(got), norm(want)
	if equalNorm(g, w) {
		return nil
	}
	gm, gok := g.(map[string]any)
	wm, wok := w.(map[string]any)
	if gok && wok {
		ks := append(slices.Collect(maps.Keys(gm)), slices.Collect(maps.Keys(wm))...)
		slices.Sort(ks)
		var out []string
		for _, k := range slices.Compact(ks) {
			gv, gin := gm[k]
			wv, win := wm[k]
			switch {
			case !win:
				out = append(out, fmt.Sprintf("%s.%s: unexpected key (got %s)", path, k, clip(show(plain(gv)))))
			case !gin:
				out = append(out, fmt.Sprintf("%s.%s: missing (want %s)", path, k, clip(show(plain(wv)))))
			default:
				out = append(out, diffValue(path+"."+k, gv, wv)...)
			}
		}
		return out
	}
	gl, gok := g.([]any)
	wl, wok := w.([]any)
	if gok && wok && len(gl) == len(wl) {
		var out []string
		for i := range gl {
			out = append(out, diffValue(fmt.Sprintf("%s[%d]", path, i), gl[i], wl[i])...)
		}
		return out
	}
	return []string{path + ": " + typedGotWant(plain(g), plain(w))}
}

// clip is s as a failure quotes it: at most 300 bytes, cut on a rune.
func clip(s string) string { return human.Clip(s, 300) }
