package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A --world k=v value of a list or object key, and a --world-file, is one
// YAML (or JSON) value: text after it on its line (which yaml.Unmarshal
// drops, reading "[1]]" as [1]) or a second document is refused, naming
// the key or file; whitespace and a comment after it are not text.
func TestWorldValueIsOneDocument(t *testing.T) {
	vars := []WorldVar{{Name: "l", Type: "list"}, {Name: "o", Type: "object"}}
	for kv, want := range map[string]string{
		"l=[1]]":            `--world l: "[1]]" is not a YAML/JSON list: text after the value`,
		"l=[1] x":           `--world l: "[1] x" is not a YAML/JSON list: text after the value`,
		`o={"a": 1}}`:       `--world o: "{\"a\": 1}}" is not a YAML/JSON object: text after the value`,
		"l=[1]\n---\n[2]":   `a second document after the value (line 2): write one value`,
		"l= [1, 2] # two\n": "",
		"o={a: 1}":          "",
		"l=":                "",
	} {
		_, err := InitWorld(vars, nil, []string{kv})
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("--world %q: %v, want %q", kv, err, want)
		}
	}
	dir := t.TempDir()
	for body, want := range map[string]string{
		`{"l": [1]}}`:                 "not valid YAML: text after the value",
		"l: [1]\n---\nl: [2]\n":       "not valid YAML: a second document after the value (line 2)",
		"l: [1]  # one\n":             "",
		"l: [1]\n---\n":               "",
		`{"o": {"p": "a\/b"}}` + "\n": "",
	} {
		f := filepath.Join(dir, "w.yaml")
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadWorldFile(f)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("--world-file %q: %v, want %q", body, err, want)
		}
	}
}
