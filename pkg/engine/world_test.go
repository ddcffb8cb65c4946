package engine

import (
	"os"
	"path/filepath"
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
	w, err := InitWorld(vars, file, []string{"n=42", "b=true", "f=2.5", `o={"a": [1, 2]}`, "l=[x, y]", "last_error=boom"})
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
		"n=abc":  `"abc" is not an int`,
		"n":      "expected key=value",
	}
	for kv, want := range cases {
		if _, err := InitWorld(vars, nil, []string{kv}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", kv, err, want)
		}
	}
	if _, err := InitWorld(vars, map[string]any{"zz": 1}, nil); err == nil || !strings.Contains(err.Error(), "--world-file") {
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

func FuzzLookupBindPath(f *testing.F) {
	for _, s := range []string{"a", "a.b", "names[0]", "stdout_json.sha", "a[1][2].c", "[", "a..", "x[99999999999999999999]", "a[0][", "a]["} {
		f.Add(s)
	}
	res := map[string]any{"a": []any{1, []any{2}}, "names": []any{"x"}, "x": map[string]any{"": 1}}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := LookupBindPath(res, s)
		if !ok && v != nil {
			t.Fatalf("%q: not found but %v", s, v)
		}
	})
}

func FuzzWorldOverride(f *testing.F) {
	for _, s := range []string{"n=1", "o={a: 1}", "l=[1,2", "b=maybe", "=x", "s=", "f=1e400"} {
		f.Add(s)
	}
	vars := []WorldVar{{Name: "n", Type: "int"}, {Name: "o", Type: "object"}, {Name: "l", Type: "list"}, {Name: "b", Type: "bool"}, {Name: "s", Type: "string"}, {Name: "f", Type: "float"}}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = InitWorld(vars, nil, []string{s})
	})
}
