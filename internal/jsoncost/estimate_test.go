package jsoncost

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

type inner struct {
	Name  string
	Tags  []string
	When  time.Time
	Raw   json.RawMessage
	Value any
	Sub   *inner `json:"sub,omitempty"`
	Skip  string `json:"-"`
	N     int    `json:"n"`
}

type Embedded struct {
	Deep []inner `json:"deep"`
}

type doc struct {
	Ptrs []*inner         `json:"ptrs"`
	Vals []inner          `json:"vals"`
	Any  any              `json:"any"`
	Map  map[string]inner `json:"map"`
	Strs []string         `json:"strs"`
	Embedded
}

// allocated is what json.Unmarshal of data into a new doc allocates.
func allocated(t *testing.T, data []byte) int64 {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var d doc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(&d)
	return int64(after.TotalAlloc - before.TotalAlloc)
}

func repeat(prefix, elem, suffix string, n int) []byte {
	return []byte(prefix + strings.Repeat(elem+",", n-1) + elem + suffix)
}

// TestEstimateFollowsUnmarshal: for documents of many small elements at
// each kind of place (pointers, values, interfaces, maps, strings, an
// embedded struct's member, matched by case folding), the estimate is
// within a factor of two of what json.Unmarshal allocates, so a bound on
// the estimate bounds the decoding; and boundFor, counted from bytes, is
// never under it.
func TestEstimateFollowsUnmarshal(t *testing.T) {
	const n = 10_000
	for name, data := range map[string][]byte{
		"pointers":        repeat(`{"ptrs":[`, `{}`, `]}`, n),
		"values":          repeat(`{"vals":[`, `{}`, `]}`, n),
		"folded key":      repeat(`{"PTRS":[`, `{}`, `]}`, n),
		"embedded":        repeat(`{"deep":[`, `{}`, `]}`, n),
		"nested tags":     repeat(`{"vals":[{"Tags":[`, `""`, `]}]}`, n),
		"any objects":     repeat(`{"any":[`, `{}`, `]}`, n),
		"any arrays":      repeat(`{"any":[`, `[]`, `]}`, n),
		"any numbers":     repeat(`{"any":[`, `1`, `]}`, n),
		"any in a member": repeat(`{"vals":[{"Value":[`, `{"a":1}`, `]}]}`, n),
		"map entries":     []byte(`{"map":{` + strings.TrimSuffix(mapKeys(n), ",") + `}}`),
		"strings":         repeat(`{"strs":[`, `"abcdefghijklmnopqrstuvwxyz"`, `]}`, n),
		"pointer chain":   repeat(`{"ptrs":[`, `{"sub":{"sub":{}}}`, `]}`, n),
	} {
		got, err := estimate(data, reflect.TypeFor[doc](), 1<<40)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := allocated(t, data)
		t.Logf("%s: %d bytes, estimate %d, allocated %d", name, len(data), got, want)
		if got < want/2 || got > want*2 {
			t.Errorf("%s: estimate %d, json.Unmarshal allocated %d: not within a factor of 2", name, got, want)
		}
		if b := boundFor(data, reflect.TypeFor[doc]()); got > b {
			t.Errorf("%s: estimate %d, over boundFor %d", name, got, b)
		}
	}
}

func mapKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `"k%d":{},`, i)
	}
	return b.String()
}

// TestEstimateStopsAtTheLimit: a walk returns once the estimate passes the
// limit, allocating a small part of the document's size, and a document
// nested past MaxDepth is an error, not a stack of a million levels.
func TestEstimateStopsAtTheLimit(t *testing.T) {
	data := repeat(`{"vals":[`, `{}`, `]}`, 1_000_000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := estimate(data, reflect.TypeFor[doc](), 1<<20)
	runtime.ReadMemStats(&after)
	if err != nil || got <= 1<<20 {
		t.Fatalf("estimate = %d, %v; want over the limit, no error", got, err)
	}
	if spent := after.TotalAlloc - before.TotalAlloc; spent > uint64(len(data))/4 {
		t.Errorf("a walk stopped at the limit allocated %d bytes for a %d-byte document", spent, len(data))
	}

	deep := []byte(`{"any":` + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + `}`)
	if _, err := estimate(deep, reflect.TypeFor[doc](), 1<<40); !errors.Is(err, ErrTooDeep) {
		t.Errorf("1,000,000 nested arrays: %v, want ErrTooDeep", err)
	}
	for _, bad := range []string{``, `{"vals":[{}`, `{"vals":]`, `[1 2]`} {
		if _, err := estimate([]byte(bad), reflect.TypeFor[doc](), 1<<40); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestEstimateWalkIsCheap: walking a whole document of short strings (the
// densest in tokens encoding/json allocates for) allocates a bounded
// multiple of its size, token by token (garbage at once), whatever it
// would decode to.
func TestEstimateWalkIsCheap(t *testing.T) {
	data := repeat(`{"any":[`, `{"k":"v"}`, `]}`, 30_000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := estimate(data, reflect.TypeFor[doc](), 1<<50); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if spent := after.TotalAlloc - before.TotalAlloc; spent > 32*uint64(len(data)) {
		t.Errorf("walking a %d-byte document allocated %d bytes", len(data), spent)
	}
}

func TestValues(t *testing.T) {
	for doc, want := range map[string]int64{
		`1`:                          1,
		`{}`:                         1,
		`{"a":[1,{"b":null},[]]}`:    6,
		`[[[]],{"x":"y","z":{}}, 2]`: 7,
	} {
		if got, err := Values([]byte(doc), 1<<40); got != want || err != nil {
			t.Errorf("Values(%s) = %d, %v; want %d", doc, got, err, want)
		}
	}
	if got, err := Values(repeat(`[`, `{}`, `]`, 1000), 10); got != 11 || err != nil {
		t.Errorf("Values past the limit = %d, %v; want 11 (stopped)", got, err)
	}
}

// Over refuses a document of many empty values and passes one of text or
// one that is not JSON, whose decoder words its refusal; its limit is
// Ratio times the size, at least the floor given (Floor for 0).
func TestOver(t *testing.T) {
	empties := []byte("[" + strings.Repeat("[],", 10_000) + "[]]")
	if limit, over := Over(empties, 1<<10); !over || limit != int64(len(empties))*Ratio {
		t.Errorf("empty arrays: over %v, limit %d", over, limit)
	}
	for name, doc := range map[string][]byte{
		"text":     []byte(`"` + strings.Repeat("x", len(empties)) + `"`),
		"not JSON": append([]byte("x"), empties...),
	} {
		if _, over := Over(doc, 1<<10); over {
			t.Errorf("%s: over", name)
		}
	}
	if limit, over := Over(empties, 0); over || limit != Floor {
		t.Errorf("floor 0: over %v, limit %d, want Floor", over, limit)
	}
}

// OverFor charges only what the type decodes: empty arrays under a member
// the type keeps raw cost their bytes, under one it decodes into a slice
// of structs they are over, as they are into any.
func TestOverFor(t *testing.T) {
	doc := []byte(`{"a":[` + strings.Repeat("{},", 10_000) + `{}]}`)
	type raw struct {
		A json.RawMessage `json:"a"`
	}
	type decoded struct {
		A []struct{ B, C string } `json:"a"`
	}
	if _, over := OverFor(doc, reflect.TypeFor[raw](), 1<<10); over {
		t.Error("a raw member: over")
	}
	if limit, over := OverFor(doc, reflect.TypeFor[decoded](), 1<<10); !over || limit != int64(len(doc))*Ratio {
		t.Errorf("a slice of structs: over %v, limit %d", over, limit)
	}
	if _, over := Over(doc, 1<<10); !over {
		t.Error("into any: not over")
	}
}
