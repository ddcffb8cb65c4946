package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/aliasmb"
)

// LoadWorldFile errors name the file as given with the reason, never Go's
// unmarshal text or an "open <path>" wrapper.
func TestLoadWorldFileErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	for name, body := range map[string]string{"l.yaml": "- a\n- b\n", "s.yaml": "just text\n", "bad.yaml": "a: [1\n", "empty.yaml": "", "null.yaml": "~\n", "ok.yaml": "a: 1\n", "k.yaml": "a: {{}: 1}\n", "tag.yaml": "a: 1\nb: [1, !!int abc]\n", "twice.yaml": "a: 1\na: 2\n", "merge.yaml": "x: &k 3\n<<: *k\n", "alias-key.yaml": "x: &k a\n*k : 1\na: 2\nn: !!int \"12\"\n"} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir("adir", 0o755); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"l.yaml":   "--world-file l.yaml: must be a YAML mapping of world keys to values (got a list)",
		"s.yaml":   "--world-file s.yaml: must be a YAML mapping of world keys to values (got a single value)",
		"bad.yaml": "--world-file bad.yaml: not valid YAML: ",
		"nosuch":   "--world-file nosuch: no such file",
		"adir":     "--world-file adir: is a directory",
		"k.yaml":   "--world-file k.yaml: line 1, column 5: a mapping or a list is used as a key",
		// what yaml.v3 refuses to decode, placed (yamlnode.Undecodable)
		"tag.yaml":   `--world-file tag.yaml: line 2, column 8: b[1]: "abc" is not an integer: drop the tag !!int`,
		"twice.yaml": "--world-file twice.yaml: line 2, column 1: a: given twice in one mapping (first at line 1, column 1)",
		"merge.yaml": `--world-file merge.yaml: line 2, column 5: <<: merges a mapping or a list of mappings, got "3"`,
	} {
		_, err := LoadWorldFile(path)
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "unmarshal") || strings.Contains(err.Error(), "open ") {
			t.Errorf("LoadWorldFile(%q) = %v, want %q", path, err, want)
		}
	}
	for _, path := range []string{"empty.yaml", "null.yaml"} {
		if m, err := LoadWorldFile(path); err != nil || len(m) != 0 {
			t.Errorf("LoadWorldFile(%q) = %v, %v; want no overrides", path, m, err)
		}
	}
	if m, err := LoadWorldFile("ok.yaml"); err != nil || m["a"] != 1 {
		t.Errorf("LoadWorldFile(ok.yaml) = %v, %v", m, err)
	}
	// yaml.v3 takes an alias key apart from its anchor's text: a later
	// key of the same text is no repeat, and a quoted !!int reads
	if m, err := LoadWorldFile("alias-key.yaml"); err != nil || m["a"] != 2 || m["n"] != 12 {
		t.Errorf("LoadWorldFile(alias-key.yaml) = %v, %v", m, err)
	}
}

func FuzzLoadWorldFile(f *testing.F) {
	for _, s := range []string{"a: 1\n", "- a\n", "x", "", "~", "a: [1\n", "&a {b: *a}", "? [a]\n: 1\n", "a: !!binary aGk=\n",
		// a second document, text after the one value, a slash escape, floats written whole, a merge key, a repeated key
		"a: 1\n---\nb: 2\n", `{"a": 1}}`, "[1]]", "a: \"\\/x\"\n", "a: 1.0\nb: 1e3\nc: -0.0\n", "<<: {a: 1}\nb: 2\n", "a: 1\na: 2\n"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "w.yaml")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := LoadWorldFile(p)
		if err != nil && m != nil {
			t.Fatalf("error %v with a world %v", err, m)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "--world-file "+p+": ") {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}

// TestWorldFileAliasTextBounded: a --world-file's aliases repeat at most
// yamlnode.MaxAliasText of text, as every other YAML file's do; the error
// names the file and the alias's line. Before, a 5 MB file naming a 1 MB
// anchor 2,000 times (padded so yaml.v3's aliasing ratio check passed)
// became the world, and kitsoki run ended in 'fatal error: out of memory'
// writing it to the trace.
func TestWorldFileAliasTextBounded(t *testing.T) {
	t.Chdir(t.TempDir())
	big := "x-anchors: " + aliasmb.Anchors() + "\nx:\n" + strings.Repeat("  - *mb\n", 70)
	if err := os.WriteFile("w.yaml", []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadWorldFile("w.yaml")
	if err == nil || !strings.HasPrefix(err.Error(), "--world-file w.yaml: line 66: the aliases of this world file repeat more than 64 MB") {
		t.Errorf("LoadWorldFile = %.300v", err)
	}
	short := "x:\n  - &s vv\n" + strings.Repeat("  - *s\n", 200)
	if err := os.WriteFile("s.yaml", []byte(short), 0o644); err != nil {
		t.Fatal(err)
	}
	if m, err := LoadWorldFile("s.yaml"); err != nil || len(m["x"].([]any)) != 201 {
		t.Errorf("short aliases: %v", err)
	}
}
