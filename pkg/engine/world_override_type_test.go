package engine

import (
	"os"
	"path/filepath"
	"testing"
)

// A --world or --world-file value the key's declared type cannot hold is
// refused, naming the key, the declared type and how to write one; null
// (leave unset) and a value of the type pass.
func TestWorldOverrideType(t *testing.T) {
	vars := []WorldVar{{Name: "o", Type: "object"}, {Name: "m", Type: "map"}, {Name: "l", Type: "list"},
		{Name: "ls", Type: "list[string]"}, {Name: "n", Type: "int"}, {Name: "f", Type: "float"},
		{Name: "b", Type: "bool"}, {Name: "s", Type: "string"}, {Name: "e", Type: "enum"}, {Name: "a"}}
	for kv, want := range map[string]string{
		"o=5":        "--world o: 5 is a number, and the story declares o type: object; write a YAML/JSON mapping: --world 'o={name: value}', or leave the key out to keep its default",
		"o=[1]":      "--world o: a list, and the story declares o type: object; write a YAML/JSON mapping: --world 'o={name: value}', or leave the key out to keep its default",
		"m=text":     `--world m: "text" is a string, and the story declares m type: map; write a YAML/JSON mapping: --world 'm={name: value}', or leave the key out to keep its default`,
		"l={a: 1}":   "--world l: a mapping, and the story declares l type: list; write a YAML/JSON list: --world 'l=[a, b]', or leave the key out to keep its default",
		"ls=true":    "--world ls: true is true/false, and the story declares ls type: list[string]; write a YAML/JSON list: --world 'ls=[a, b]', or leave the key out to keep its default",
		"o={a: 1}":   "",
		"o=":         "",
		"o=null":     "",
		"ls=[a, b]":  "",
		"n=3":        "",
		"f=0.5":      "",
		"b=true":     "",
		"s=5":        "",
		"e=anything": "",
		"a=5":        "",
	} {
		_, err := InitWorld(vars, nil, []string{kv})
		if got := errText(err); got != want {
			t.Errorf("--world %q:\n got %s\nwant %s", kv, got, want)
		}
	}
	dir := t.TempDir()
	for body, want := range map[string]string{
		"o: 5\n":       "--world-file w.yaml: o: 5 is a number, and the story declares o type: object; write a mapping (o: {name: value}), or leave the key out to keep its default",
		"l: text\n":    `--world-file w.yaml: l: "text" is a string, and the story declares l type: list; write a list (l: [a, b]), or leave the key out to keep its default`,
		"n: \"3\"\n":   `--world-file w.yaml: n: "3" is a string, and the story declares n type: int; write an integer (n: 3), or leave the key out to keep its default`,
		"n: 2.5\n":     "--world-file w.yaml: n: 2.5 is not a whole number, and the story declares n type: int; write an integer (n: 3), or leave the key out to keep its default",
		"b: [1]\n":     "--world-file w.yaml: b: a list, and the story declares b type: bool; write true or false (b: true), or leave the key out to keep its default",
		"s: {a: 1}\n":  `--world-file w.yaml: s: a mapping, and the story declares s type: string; quote it (s: "text"), or leave the key out to keep its default`,
		"o: {a: 1}\n":  "",
		"o: null\n":    "",
		"l: [1, 2]\n":  "",
		"n: 3\n":       "",
		"f: 3\n":       "",
		"a: {x: 1}\n":  "",
		"e: [1]\n":     "",
		"s: text\n":    "",
		"ls: [x, y]\n": "",
	} {
		p := filepath.Join(dir, "w.yaml")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		file, err := LoadWorldFile(p)
		if err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		_, err = InitWorld(vars, &WorldFile{Path: "w.yaml", Values: file}, nil)
		if got := errText(err); got != want {
			t.Errorf("--world-file %q:\n got %s\nwant %s", body, got, want)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
