package jsonvalue

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzOne holds one (float64 numbers) to encoding/json's Unmarshal, which also takes exactly
// one value with whitespace around it (both accept the same inputs and
// decode them to the same value), and OneExact to json.Valid.
func FuzzOne(f *testing.F) {
	for _, s := range []string{`{"a":1}`, " [1] \n", `[1]]`, `{"a":1}}`, `1 2`, ``, ` `, `"x"`, `1e400`, `{"a":[1,{"b":null}]}x`, "\t{}\r\n", `nul`, `[1,]`, `"\ud800"`, "{\"a\":1,\"a\":[2,{}]}", "\"\xff\\u00e9\"", `{"k\"":"\ud834\udd1e\u2028"}`, `-0.5e-3`,
		`"\ud800\udc00\ud800\u0041\udc00\ud800\ud800\udc00\uD83D\uDE00x\ud800"`, `"a\/b\b\f\n\r\t\"\\\u00E9\u0000"`, "\"\xed\xa0\x80 \xf0\x9f\x98 \xc3\\n\"", `"\ud800\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want any
		wantErr := json.Unmarshal(data, &want)
		var got any
		gotErr := oneFloat(data, &got)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: one err %v, Unmarshal err %v", data, gotErr, wantErr)
		}
		if gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: one %#v, Unmarshal %#v", data, got, want)
		}
		var exact any // json.Number keeps any number: exactly the valid documents
		if err := OneExact(data, &exact); (err == nil) != json.Valid(data) {
			t.Fatalf("%q: OneExact err %v, json.Valid %v", data, err, json.Valid(data))
		}
	})
}
