package jsonvalue

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestInts(t *testing.T) {
	got := Ints(decode(t, `{"a":1,"b":[2,2.5,{"c":-3}],"d":"4","e":1e400,"f":12345678901234567890}`))
	want := map[string]any{"a": 1, "b": []any{2, 2.5, map[string]any{"c": -3}}, "d": "4", "e": got.(map[string]any)["e"], "f": 1.2345678901234567e19}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Ints = %#v, want %#v", got, want)
	}
	if Ints(json.Number("7")) != 7 {
		t.Fatal("a bare number is not converted")
	}
}

func TestInt64s(t *testing.T) {
	got := Int64s(decode(t, `{"a":1,"b":[2,2.5]}`))
	want := map[string]any{"a": int64(1), "b": []any{int64(2), 2.5}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Int64s = %#v, want %#v", got, want)
	}
	var plain any
	if err := json.Unmarshal([]byte(`[3, 3.5, 9007199254740993]`), &plain); err != nil {
		t.Fatal(err)
	}
	got = Int64s(plain)
	if g := got.([]any); g[0] != int64(3) || g[1] != 3.5 {
		t.Fatalf("floats: %#v", g)
	}
	if _, ok := got.([]any)[2].(float64); !ok {
		t.Fatalf("a float beyond 2^53 became %T", got.([]any)[2])
	}
}

func TestCopySharesNoContainer(t *testing.T) {
	src := map[string]any{"m": map[string]any{"x": 1}, "s": []any{map[string]any{"y": 2}}, "t": []string{"keep"}}
	c := CopyMap(src)
	c["m"].(map[string]any)["x"] = 9
	c["s"].([]any)[0].(map[string]any)["y"] = 9
	if src["m"].(map[string]any)["x"] != 1 || src["s"].([]any)[0].(map[string]any)["y"] != 2 {
		t.Fatal("CopyMap aliases the source")
	}
	if _, ok := c["t"].([]string); !ok {
		t.Fatal("CopyMap changed a value it does not walk")
	}
	if CopyMap(nil) != nil {
		t.Fatal("CopyMap(nil) != nil")
	}
}

// A nil list stays nil through the copies the engine makes of a call's
// answer and a rendered value, as JSON's null (conformance
// git-diff-files-nil); CopyNilAsEmpty alone makes it empty.
func TestCopiesKeepNilList(t *testing.T) {
	src := map[string]any{"files": []any(nil), "in": []any{[]any(nil)}}
	for name, got := range map[string]map[string]any{
		"CopyMap":   CopyMap(src),
		"Normalize": Normalize(src).(map[string]any),
	} {
		if l, ok := got["files"].([]any); !ok || l != nil {
			t.Errorf("%s: files = %#v, want a nil []any", name, got["files"])
		}
		if l := got["in"].([]any)[0].([]any); l != nil {
			t.Errorf("%s: nested = %#v, want a nil []any", name, l)
		}
	}
	if l := CopyNilAsEmpty(src).(map[string]any)["files"].([]any); l == nil {
		t.Error("CopyNilAsEmpty kept a nil list")
	}
}

func TestCopyAsJSON(t *testing.T) {
	type pt struct {
		X int `json:"x"`
	}
	raw := json.RawMessage(`{"r":1}`)
	src := map[string]any{"ss": []string{"a"}, "ms": map[string]string{"k": "v"}, "st": pt{X: 1}, "raw": raw, "bad": make(chan int)}
	got := CopyAsJSON(src).(map[string]any)
	want := map[string]any{"ss": []any{"a"}, "ms": map[string]any{"k": "v"}, "st": map[string]any{"x": float64(1)}, "raw": raw, "bad": nil}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("CopyAsJSON = %#v, want %#v", got, want)
	}
	raw[2] = 'X'
	if got["raw"].(json.RawMessage)[2] == 'X' {
		t.Fatal("RawMessage shared")
	}
}

func TestRoundTrip(t *testing.T) {
	if got := RoundTrip(map[string]int{"a": 1}); !reflect.DeepEqual(got, map[string]any{"a": float64(1)}) {
		t.Fatalf("RoundTrip = %#v", got)
	}
	ch := make(chan int)
	if RoundTrip(ch) != any(ch) {
		t.Fatal("an unencodable value is not returned as it is")
	}
	if RoundTrip(nil) != nil {
		t.Fatal("nil")
	}
}

func TestNormalize(t *testing.T) {
	inner := map[any]any{1: "one", "k": []any{map[any]any{true: "t"}}}
	src := map[string]any{"m": inner, "s": "x"}
	got := Normalize(src)
	want := map[string]any{"m": map[string]any{"1": "one", "k": []any{map[string]any{"true": "t"}}}, "s": "x"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Normalize = %#v, want %#v", got, want)
	}
	if _, err := json.Marshal(got); err != nil {
		t.Fatalf("not encodable: %v", err)
	}
	got.(map[string]any)["s"] = "changed"
	if src["s"] != "x" {
		t.Fatal("Normalize aliases the source map")
	}
}

func TestCopyNilAsEmpty(t *testing.T) {
	var none map[string]any
	src := map[string]any{"n": none, "s": []any{none, map[string]any{"y": 2}}}
	kept, _ := json.Marshal(CopyMap(src))
	if string(kept) != `{"n":null,"s":[null,{"y":2}]}` {
		t.Fatalf("CopyMap: %s", kept)
	}
	c := CopyNilAsEmpty(src).(map[string]any)
	filled, _ := json.Marshal(c)
	if string(filled) != `{"n":{},"s":[{},{"y":2}]}` {
		t.Fatalf("CopyNilAsEmpty: %s", filled)
	}
	if m, ok := CopyNilAsEmpty(none).(map[string]any); !ok || m == nil {
		t.Fatalf("CopyNilAsEmpty(nil map) = %#v", m)
	}
	c["s"].([]any)[1].(map[string]any)["y"] = 9
	if src["s"].([]any)[1].(map[string]any)["y"] != 2 {
		t.Fatal("CopyNilAsEmpty aliases the source")
	}
}

func TestMapStrings(t *testing.T) {
	up := func(s string) string { return strings.ToUpper(s) }
	src := map[string]any{"k": "v", "n": 1.5, "l": []any{"a", map[string]any{"x": "y"}}, "nil": nil}
	got, _ := json.Marshal(MapStrings(src, up, false))
	if string(got) != `{"k":"V","l":["A",{"x":"Y"}],"n":1.5,"nil":null}` {
		t.Fatalf("values: %s", got)
	}
	got, _ = json.Marshal(MapStrings(src, up, true))
	if string(got) != `{"K":"V","L":["A",{"X":"Y"}],"N":1.5,"NIL":null}` {
		t.Fatalf("keys: %s", got)
	}
	if src["k"] != "v" || src["l"].([]any)[0] != "a" || src["l"].([]any)[1].(map[string]any)["x"] != "y" {
		t.Fatalf("the source changed: %v", src)
	}
}

// MapLeaves applies f to every scalar, keeps nil maps and slices nil, and
// shares no container with its source.
func TestMapLeaves(t *testing.T) {
	var noMap map[string]any
	var noList []any
	src := map[string]any{"n": 1, "m": noMap, "l": noList, "s": []any{2, "x", map[string]any{"y": 3}}}
	double := func(v any) any {
		if n, ok := v.(int); ok {
			return 2 * n
		}
		return v
	}
	got := MapLeaves(src, double).(map[string]any)
	want := map[string]any{"n": 2, "m": noMap, "l": noList, "s": []any{4, "x", map[string]any{"y": 6}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("MapLeaves = %#v, want %#v", got, want)
	}
	if got["m"].(map[string]any) != nil || got["l"].([]any) != nil {
		t.Fatalf("a nil container came back non-nil: %#v", got)
	}
	got["s"].([]any)[2].(map[string]any)["y"] = 9
	if src["s"].([]any)[2].(map[string]any)["y"] != 3 {
		t.Fatal("MapLeaves aliases the source")
	}
	if MapLeaves(5, double) != 10 {
		t.Fatal("a bare scalar is not mapped")
	}
}

// Integer takes every Go integer kind a decoder or a caller makes, and
// nothing else; an unsigned value above MaxInt64 is refused.
func TestInteger(t *testing.T) {
	for _, c := range []struct {
		v    any
		n    int64
		want bool
	}{
		{int(-3), -3, true}, {int8(7), 7, true}, {int64(math.MinInt64), math.MinInt64, true},
		{uint8(9), 9, true}, {uint64(math.MaxInt64), math.MaxInt64, true}, {uint64(math.MaxInt64) + 1, 0, false},
		{2.0, 0, false}, {"2", 0, false}, {nil, 0, false}, {true, 0, false},
	} {
		if n, ok := Integer(c.v); ok != c.want || ok && n != c.n {
			t.Errorf("Integer(%#v) = %d, %v; want %d, %v", c.v, n, ok, c.n, c.want)
		}
	}
}

// NaN and the infinities become the texts upstream compares them by, at
// any depth; a value without one is returned unchanged (not copied), and
// the input is never written.
func TestNonFiniteText(t *testing.T) {
	in := map[string]any{"n": math.NaN(), "l": []any{math.Inf(1), 1.5, map[string]any{"m": math.Inf(-1)}}, "s": "NaN", "i": 3}
	got := NonFiniteText(in)
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"i":3,"l":["+Inf",1.5,{"m":"-Inf"}],"n":"NaN","s":"NaN"}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	if f, _ := in["n"].(float64); !math.IsNaN(f) {
		t.Errorf("input written: %v", in["n"])
	}
	plain := map[string]any{"a": []any{1.0}}
	if out := NonFiniteText(plain).(map[string]any); reflect.ValueOf(out).Pointer() != reflect.ValueOf(plain).Pointer() {
		t.Error("a value without NaN or ±Inf was copied")
	}
}

func TestFirstNonNFC(t *testing.T) {
	nfd := "cafe\u0301"
	for _, tc := range []struct {
		v    any
		want bool
	}{
		{"café", false},
		{nfd, true},
		{map[string]any{"a": []any{1, "x", map[string]any{"b": nfd}}}, true},
		{map[string]any{nfd: 1}, true},
		{map[string]string{"k": nfd}, true},
		{map[string]any{"a": []string{"x", nfd}}, true}, // a typed value inside a model
		{[]string{"ascii", "é"}, false},
		{`\u0065\u0301`, false}, // the text of an escape, not the character
		{nil, false},
	} {
		if s, got := FirstNonNFC(tc.v); got != tc.want || got && s != nfd {
			t.Errorf("FirstNonNFC(%#v) = %q, %v; want %v", tc.v, s, got, tc.want)
		}
	}
}
