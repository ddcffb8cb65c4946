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
