package jsoncost

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzEstimate: estimate and Values never panic on any input, refuse
// exactly what encoding/json refuses (the fuzzer's inputs nest far less
// than MaxDepth), and a document json.Unmarshal takes into a value of the
// type is estimated to cost something (it is never waved through free),
// never more than bound (any) or boundFor (each type) counts from bytes;
// Over and OverFor (each type) say a document is over its limit exactly
// when the walk to it does.
func FuzzEstimate(f *testing.F) {
	for _, seed := range []string{
		`{}`, `[]`, `null`, `1e999`, `"\u00e9"`, `{"Name":"x","Tags":["a"],"sub":{"Value":[{}]}}`,
		`[{},{},{}]`, `{"a":`, `[1,]`, `{"Raw":{"x":[1,2]}}`, `{"When":"2026-01-01T00:00:00Z"}`,
		"\xff", `[[[[[[]]]]]]`, `{"Tags":null,"Value":{"k":[true,false,null]}}`, ` 1 2`,
	} {
		f.Add([]byte(seed))
	}
	types := []reflect.Type{nil, reflect.TypeFor[any](), reflect.TypeFor[inner](), reflect.TypeFor[[]inner](), reflect.TypeFor[map[string]*inner](), reflect.TypeFor[doc]()}
	f.Fuzz(func(t *testing.T, data []byte) {
		valid := json.Valid(data)
		n, err := Values(data, 1<<40)
		if (err == nil) != valid {
			t.Fatalf("Values(%q) = %d, %v; json.Valid says %v", data, n, err, valid)
		}
		if valid && n < 1 {
			t.Fatalf("Values(%q) = %d for a document", data, n)
		}
		for _, typ := range types[1:] {
			cost, err := estimate(data, typ, 1<<40)
			if (err == nil) != valid {
				t.Fatalf("estimate(%q, %v) = %d, %v; json.Valid says %v", data, typ, cost, err, valid)
			}
			if cost < 0 {
				t.Fatalf("estimate(%q, %v) = %d", data, typ, cost)
			}
		}
		if cost, _ := estimate(data, types[1], 1<<40); valid && cost > bound(data) {
			t.Fatalf("estimate(%q, any) = %d, over bound %d", data, cost, bound(data))
		}
		for _, typ := range types[1:] {
			if cost, _ := estimate(data, typ, 1<<40); valid && cost > boundFor(data, typ) {
				t.Fatalf("estimate(%q, %v) = %d, over boundFor %d", data, typ, cost, boundFor(data, typ))
			}
		}
		// a small limit stops the walk without a wrong error
		if _, err := estimate(data, types[1], 1); valid && err != nil {
			t.Fatalf("estimate(%q) with a small limit: %v", data, err)
		}
		// Over's shortcut through bound, and OverFor's through boundFor,
		// agree with the walk to their limit on a document (they bound no
		// walk of what is not JSON, which its decoder refuses whatever
		// they say)
		for _, floor := range []int64{1, 64} {
			limit, over := Over(data, floor)
			cost, err := estimate(data, types[1], limit)
			if want := err == nil && cost > limit; valid && over != want {
				t.Fatalf("Over(%q, %d) = %d, %v; the walk says %d, %v", data, floor, limit, over, cost, err)
			}
			for _, typ := range types[1:] {
				limit, over := OverFor(data, typ, floor)
				cost, err := estimate(data, typ, limit)
				if want := err == nil && cost > limit; valid && over != want {
					t.Fatalf("OverFor(%q, %v, %d) = %d, %v; the walk says %d, %v", data, typ, floor, limit, over, cost, err)
				}
			}
		}
	})
}
