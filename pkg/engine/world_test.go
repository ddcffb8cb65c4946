package engine

import (
	"encoding/json"
	"fmt"
	"kitsoki/internal/jsonvalue"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestInitWorldPrecedenceAndTypes(t *testing.T) {
	vars := []WorldVar{
		{Name: "s", Type: "string", Default: "d"},
		{Name: "n", Type: "int", Default: 1},
		{Name: "b", Type: "bool", Default: false},
		{Name: "f", Type: "float", Default: 0.5},
		{Name: "o", Type: "object", Default: map[string]any{"k": "v"}},
		{Name: "l", Type: "list", Default: []any{}},
	}
	dir := t.TempDir()
	wf := filepath.Join(dir, "w.yaml")
	os.WriteFile(wf, []byte("s: from-file\nn: 7\n"), 0o644)
	file, err := LoadWorldFile(wf)
	if err != nil {
		t.Fatal(err)
	}
	w, err := InitWorld(vars, &WorldFile{Path: wf, Values: file}, []string{"n=42", "b=true", "f=2.5", `o={"a": [1, 2]}`, "l=[x, y]", "last_error=boom"})
	if err != nil {
		t.Fatal(err)
	}
	if w["s"] != "from-file" || w["n"] != 42 || w["b"] != true || w["f"] != 2.5 || w["last_error"] != "boom" {
		t.Errorf("world = %v", w)
	}
	if a := w["o"].(map[string]any)["a"].([]any); len(a) != 2 {
		t.Errorf("o = %v", w["o"])
	}
	if l := w["l"].([]any); len(l) != 2 || l[1] != "y" {
		t.Errorf("l = %v", w["l"])
	}
	// defaults are copied, never aliased
	w["o"].(map[string]any)["k"] = "changed"
	if vars[4].Default.(map[string]any)["k"] != "v" {
		t.Error("world aliases the story default")
	}
}

func TestInitWorldErrors(t *testing.T) {
	vars := []WorldVar{{Name: "n", Type: "int", Default: 1}}
	cases := map[string]string{
		"nope=1": `world key "nope" is not declared`,
		"n=abc":  `--world n: "abc" is not an int, and the story declares n type: int; write an integer: --world n=3, or leave the key out to keep its default`,
		"n":      "expected key=value",
	}
	for kv, want := range cases {
		if _, err := InitWorld(vars, nil, []string{kv}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", kv, err, want)
		}
	}
	if _, err := InitWorld(vars, &WorldFile{Path: "w.yaml", Values: map[string]any{"zz": 1}}, nil); err == nil || !strings.Contains(err.Error(), "--world-file") {
		t.Errorf("file key: %v", err)
	}
}

// Bind result paths read as upstream's (the conformance golden
// testdata/conformance/values-bind-paths): dotted map keys
// and [n] list indexes, nothing trimmed, anything malformed finds nothing.
func TestLookupBindPath(t *testing.T) {
	res := map[string]any{"stdout": "hi", "obj": map[string]any{"x": "ox", "0": "zero"}, "list": []any{"l0", "l1"},
		"nest": []any{[]any{"n00", "n01"}}, "num": map[string]any{"0": "numzero"}, "lm": []any{map[string]any{"y": "lmy"}},
		"nul": nil, "a b": "ab"}
	found := map[string]any{"list[1]": "l1", "nest[0][1]": "n01", "num.0": "numzero", "lm[0].y": "lmy", "nul": nil,
		"a b": "ab", "obj.x": "ox", "stdout": "hi"}
	for p, want := range found {
		if got, ok := LookupBindPath(res, p); !ok || !sameJSON(got, want) {
			t.Errorf("%q = %v %v, want %v", p, got, ok, want)
		}
	}
	for _, p := range []string{"", " ", "obj..x", "list.1", ".obj", "obj.", "list[x]", "obj.x ", "[0]", "obj[0]",
		"stdout[0]", "obj.x.y", "list[0].y", "list[ 1 ]", "list[-1]", "list[5]", "list[1]x", "list[1", "missing"} {
		if got, ok := LookupBindPath(res, p); ok {
			t.Errorf("%q found %v, want nothing", p, got)
		}
	}
}

// World keys are flat: a dotted key is one key, as upstream writes it.
func TestWorldKeysAreFlat(t *testing.T) {
	w := World{"m": map[string]any{}}
	setPath(w, "m.k", 1)
	if w["m.k"] != 1 || len(w["m"].(map[string]any)) != 0 || getPath(w, "m.k") != 1 {
		t.Errorf("world %v", w)
	}
}

// FuzzLookupBindPath: any JSON result and any path: a path not found
// gives nil; every value in the result is found, the very value, at the
// path that names it (keys joined by dots, list indexes in brackets),
// written plainly or with its indexes zero-padded.
func FuzzLookupBindPath(f *testing.F) {
	res := `{"a": [1, [2]], "names": ["x"], "x": {"": 1}, "stdout_json": {"sha": "s", "l": [[{"c": true}]]}}`
	for _, s := range []string{"a", "a.b", "names[0]", "stdout_json.sha", "a[1][2].c", "[", "a..", "x[99999999999999999999]", "a[0][", "a][", "a[+1]", "a[01]"} {
		f.Add(res, s)
	}
	f.Add(`{"a]": {"b": [{"c": [0, 1]}]}, "é": {"ü": null}}`, "a].b[0].c[1]")
	f.Fuzz(func(t *testing.T, doc, path string) {
		var v any
		if json.Unmarshal([]byte(doc), &v) != nil {
			return
		}
		if got, ok := LookupBindPath(v, path); !ok && got != nil {
			t.Fatalf("%q: not found but %v", path, got)
		}
		walkBindPaths(v, "", func(p string, want any) {
			for _, q := range []string{p, strings.ReplaceAll(p, "[", "[0")} {
				got, ok := LookupBindPath(v, q)
				if !ok || !reflect.DeepEqual(got, want) {
					t.Fatalf("%s in %s: got %v, %v; want %v", q, doc, got, ok, want)
				}
			}
		})
	})
}

// walkBindPaths calls visit with the path of each value below v that a
// bind path can name: a key that is not empty and holds no dot or bracket,
// followed by list indexes.
func walkBindPaths(v any, prefix string, visit func(string, any)) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "" || strings.ContainsAny(k, ".[") {
				continue
			}
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			visit(p, e)
			walkBindPaths(e, p, visit)
		}
	case []any:
		if prefix == "" {
			return // a bind path starts with a key
		}
		for i, e := range x {
			p := prefix + "[" + strconv.Itoa(i) + "]"
			visit(p, e)
			walkBindPaths(e, p, visit)
		}
	}
}

// FuzzWorldOverride: any --world value: a refusal names the flag (and
// the key, once there is one); a value taken has the declared type, and
// an int, float or bool is taken exactly when strconv reads the trimmed
// text, as strconv reads it; a string is the text as given.
func FuzzWorldOverride(f *testing.F) {
	for _, s := range []string{"n=1", "o=5", "o={a: 1}", "l=[1,2", "b=maybe", "=x", "s=", "f=1e400", "n= 7 ", "f=0x1p-2", "b=T", "x=1", "s= a=b ", "l=[1]]"} {
		f.Add(s)
	}
	vars := []WorldVar{{Name: "n", Type: "int"}, {Name: "o", Type: "object"}, {Name: "l", Type: "list"}, {Name: "b", Type: "bool"}, {Name: "s", Type: "string"}, {Name: "f", Type: "float"}}
	f.Fuzz(func(t *testing.T, s string) {
		w, err := InitWorld(vars, nil, []string{s})
		k, raw, hasEq := strings.Cut(s, "=")
		k = strings.TrimSpace(k)
		if !hasEq || k == "" {
			if err == nil || err.Error() != fmt.Sprintf("--world %q: expected key=value", s) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "--world ") || !strings.Contains(err.Error(), k) {
				t.Fatalf("%q refused without naming the flag and key: %v", s, err)
			}
		}
		trimmed := strings.TrimSpace(raw)
		var want any
		var wantErr error
		switch k {
		case "n":
			var n int64
			n, wantErr = strconv.ParseInt(trimmed, 10, 64)
			want = int(n)
		case "f":
			want, wantErr = strconv.ParseFloat(trimmed, 64)
		case "b":
			want, wantErr = strconv.ParseBool(trimmed)
		case "s":
			want = raw
		case "o", "l":
			if got := jsonvalue.Kind(w[k]); err == nil && got != jsonvalue.KindNull && got != map[string]string{"o": jsonvalue.KindObject, "l": jsonvalue.KindList}[k] {
				t.Fatalf("%q: %s taken into a key declared %s", s, got, map[string]string{"o": "object", "l": "list"}[k])
			}
			return
		default:
			if err == nil {
				t.Fatalf("%q: undeclared key %q taken", s, k)
			}
			return
		}
		switch got, ok := w[k]; {
		case (err == nil) != (wantErr == nil):
			t.Fatalf("%q: refused %v, strconv %v", s, err, wantErr)
		case err == nil && (!ok || !reflect.DeepEqual(got, want) && !(got != got && want != want)): // NaN is NaN
			t.Fatalf("%q read as %#v, want %#v", s, got, want)
		}
	})
}
