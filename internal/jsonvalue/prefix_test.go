package jsonvalue

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// FuzzMarshalPrefix holds MarshalPrefix to json.Marshal: the whole
// encoding when it is at most the limit, else a prefix of it past the
// limit; for decoded JSON in each number form the engine and the agent
// bind, and for a value it hands to json.Marshal whole.
func FuzzMarshalPrefix(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `"\u00e9\u00e9\u00e9\u00e9"`, `{"k<>":["x&y",1.5,null,true,{"z":"\ud834\udd1e"}],"b":"\u2028"}`, `[1e300,-0,12345678901234567891]`, `{"` + strings.Repeat("long key ", 30) + `":1}`, `"` + strings.Repeat("\u00e9", 100) + `"`, `"\xff\xfe` + strings.Repeat("x", 200) + `"`} {
		for _, limit := range []uint8{0, 5, 17, 160} {
			f.Add([]byte(s), limit)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, limit uint8) {
		var v any
		if OneExact(data, &v) != nil {
			return
		}
		check := func(what string, v any) {
			want, err := json.Marshal(v)
			got := MarshalPrefix(v, int(limit))
			switch {
			case err != nil:
				if got != nil {
					t.Fatalf("%s %q: got %q, json.Marshal fails (%v)", what, data, got, err)
				}
			case len(want) <= int(limit):
				if !bytes.Equal(got, want) {
					t.Fatalf("%s %q limit %d: got %q, want %q", what, data, limit, got, want)
				}
			case len(got) <= int(limit) || !bytes.HasPrefix(want, got):
				t.Fatalf("%s %q limit %d: got %q, not a prefix of %q past the limit", what, data, limit, got, want)
			}
		}
		check("json.Number", CopyAsJSON(v))
		check("Ints", Ints(CopyAsJSON(v)))
		check("Int64s", Int64s(CopyAsJSON(v)))
		check("[]string", map[string]any{"list": []string{"a", string(data)}, "v": v})
	})
}

// A summary of a 16 MiB answer encodes a little more than it shows.
func TestMarshalPrefixBigAnswer(t *testing.T) {
	answer := map[string]any{"text": strings.Repeat("big answer ", 16<<20/11), "n": 1}
	var got []byte
	spent := allocs.During(func() { got = MarshalPrefix(answer, 160) })
	if want := `{"n":1,"text":"big answer big answer `; !strings.HasPrefix(string(got), want) || len(got) <= 160 {
		t.Fatalf("got %q", got)
	}
	if spent > 64<<10 {
		t.Errorf("summarising a 16 MiB answer allocated %d bytes", spent)
	}
}
