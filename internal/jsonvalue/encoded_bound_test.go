package jsonvalue

import (
	"encoding/json"
	"testing"
)

// FuzzEncodedBound holds EncodedBound to json.Marshal: never below the
// encoding's length, and equal to it for a string or a value holding no
// float.
func FuzzEncodedBound(f *testing.F) {
	for _, s := range []string{``, `"a\nb\"<&>\u2028\u0001é"`, `{"k\t":[1,2.5,"x",null,true,{}]}`, `[-0.0,1e300,12345678901234567890]`, "\"\xff\xfe\"", `{"a":{"b":[[]]}}`, `[0,7,-3,{"n":12}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if b, err := json.Marshal(string(data)); err != nil || StringBound(string(data)) != len(b) {
			t.Fatalf("StringBound(%q) = %d, json.Marshal gives %d bytes (%v)", data, StringBound(string(data)), len(b), err)
		}
		var v any
		if OneExact(data, &v) != nil {
			return
		}
		v = Ints(v) // as an agent's answer is bound
		b, err := json.Marshal(v)
		if err != nil {
			t.Skip(err)
		}
		// and as a story's YAML whole numbers are held
		for _, v := range []any{v, YAMLInts(v)} {
			got := EncodedBound(v)
			if got < len(b) || (!holdsFloat(v) && got != len(b)) {
				t.Fatalf("EncodedBound(%s) = %d, json.Marshal gives %d bytes: %s", data, got, len(b), b)
			}
		}
	})
}

func holdsFloat(v any) bool {
	switch x := v.(type) {
	case float64:
		return true
	case map[string]any:
		for _, e := range x {
			if holdsFloat(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if holdsFloat(e) {
				return true
			}
		}
	}
	return false
}
