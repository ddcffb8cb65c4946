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

func TestPaths(t *testing.T) {
	v := map[string]any{"a": map[string]any{"b": []any{"x", map[string]any{"c": 3}}}}
	for p, want := range map[string]any{"a.b[0]": "x", "a.b[1].c": 3, "a.b.1.c": 3} {
		segs, err := parsePath(p)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := lookupPath(v, segs); !ok || got != want {
			t.Errorf("%s = %v %v", p, got, ok)
		}
	}
	for _, bad := range []string{"", "a..b", "a[", "a[x]", "a[-1]"} {
		if _, err := parsePath(bad); err == nil {
			t.Errorf("parsePath(%q) accepted", bad)
		}
	}
	if segs, _ := parsePath("a.zz"); segs != nil {
		if _, ok := lookupPath(v, segs); ok {
			t.Error("missing key found")
		}
	}
}

func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"a", "a.b", "names[0]", "stdout_json.sha", "a[1][2].c", "[", "a..", "x[99999999999999999999]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		segs, err := parsePath(s)
		if err != nil {
			return
		}
		_, _ = lookupPath(map[string]any{"a": []any{1}}, segs)
		w := World{}
		_ = setPath(w, s, 1)
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
