package jsonvalue

import (
	"encoding/json"
	"math/big"
	"testing"
)

type num *big.Float // as pkg/flowtest names its numbers

func TestKind(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, "null"}, {"x", "string"}, {true, "true/false"}, {3.5, "number"}, {int64(3), "number"},
		{uint64(3), "number"}, {json.Number("1e400"), "number"}, {new(big.Float), "number"}, {num(new(big.Float)), "number"},
		{map[string]any{}, "object"}, {map[string]int{}, "object"}, {[]any{}, "list"}, {[]string{}, "list"},
		{struct{}{}, "object"}, {new(int), "number"}, {func() {}, "value"},
	} {
		if got := Kind(c.v); got != c.want {
			t.Errorf("Kind(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
	for kind, want := range map[string]string{"null": "null", "true/false": "true/false", "object": "an object", "list": "a list", "string": "a string", "number": "a number"} {
		if got := WithArticle(kind); got != want {
			t.Errorf("WithArticle(%q) = %q, want %q", kind, got, want)
		}
	}
}

// RawKind names an encoded value's type as Kind names the decoded one.
func TestRawKind(t *testing.T) {
	for _, raw := range []string{`null`, `"x"`, `true`, `false`, `-1.5e3`, `0`, `{}`, `[1]`} {
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatal(err)
		}
		if got, want := RawKind([]byte(raw)), Kind(v); got != want {
			t.Errorf("RawKind(%s) = %q, want %q", raw, got, want)
		}
	}
	if got := RawKind(nil); got != KindNull {
		t.Errorf("RawKind(nil) = %q", got)
	}
}
