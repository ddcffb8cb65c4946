package trace

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// jsonHead is a prefix of json.Marshal at every limit, the whole of it or
// more than limit bytes, for what decodeNumbers makes: HTML characters,
// invalid bytes, U+2028, multi-byte runes at the cut, nesting, unsorted
// keys.
func TestJSONHeadIsMarshalsPrefix(t *testing.T) {
	values := []any{
		nil, true, json.Number("-1.5e3"), "",
		"a<b>&c\u2028\xff\xfeé日本語\n\"\\",
		[]any{}, map[string]any{},
		map[string]any{"b": []any{"x", json.Number("2"), nil}, "a": map[string]any{"z<": "é", "\xff": false}, "": "", "aa": "日本"},
		[]any{map[string]any{"k": "v"}, []any{[]any{}}, "s"},
	}
	for _, v := range values {
		full, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		for limit := 0; limit <= len(full)+2; limit++ {
			head, whole, ok := jsonHead(v, limit)
			if !ok || !strings.HasPrefix(string(full), head) {
				t.Fatalf("jsonHead(%s, %d) = %q (ok %v), not a prefix", full, limit, head, ok)
			}
			if (whole && head != string(full)) || (!whole && len(head) <= limit) {
				t.Fatalf("jsonHead(%s, %d) = %q whole=%v", full, limit, head, whole)
			}
		}
	}
	if _, _, ok := jsonHead(json.Number("x"), 10); ok {
		t.Fatal("an invalid number is left to json.Marshal")
	}
}

// A payload value of many members is rendered only as far as it is shown:
// trace show on a line whose slots held 2M keys marshalled them all (and
// sorted them) to print 80 runes (3.9 s, 730 MB). The text is what
// clipping the whole value gave.
func TestTimelineWideValueBounded(t *testing.T) {
	wide := map[string]any{}
	for i := range 200_000 {
		wide[fmt.Sprintf("k%d", i)] = json.Number(fmt.Sprint(i))
	}
	long := []any{strings.Repeat("é<", 1<<20), wide}
	tl := &Timeline{}
	for _, v := range []any{wide, long} {
		full, _ := json.Marshal(v)
		want := clip(string(full), 80)
		var got string
		spent := allocs.During(func() { got = tl.value(v) })
		if got != want {
			t.Fatalf("value = %q, want %q", got, want)
		}
		if spent > 64<<10 {
			t.Errorf("rendering 80 runes of a %d-byte value allocated %d bytes", len(full), spent)
		}
	}
}
