package fold

import (
	"bytes"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/story"
)

var overrideStrings = []string{
	"", "a", "plain words", "Custom working state (overridden by parent).", "{{ slots.url }}", "@exit:completed",
	"it's", "'quoted'", "\"dq\"", "a: b", "a:b", "a:", "a #b", "a#b", "trailing ", "y", "Y", "yes", "yEs", "no", "on", "On",
	"off", "n", "true", "True", "tRue", "false", "null", "NULL", "Null", "nil", "~", "1", "1.5", "-x", "- x", "? x", ":x",
	"#c", "[a]", "{a}", "*a", "&a", "!a", "|a", ">a", "%a", "`a", ",a", "]a", "}a", ".inf", "e5", "0x1f", "a\tb", "é",
	"multi\nline\n", "no newline\nat end", "two\n\n", "  lead\nx\n", "\nlead break\n", "space \nbreak\n", "x\n  indented\n\nend\n",
	"[override] Custom working room for {{ world.ticket_id }}.\n", "ends with space\nx ", "a\n", "\n", "a\n\n\nb\n", "tab\tin\nit\n",
	"a long line of text that goes well beyond the eighty columns that a YAML emitter might wrap a plain scalar at, and then some",
	"<<", "=", "a b  c", "a 'b' c", "a \"b\" c", "a, b", "a [b] {c}", "--- x", "... x", "ab:", "a :b", "a : b",
}

func overrideDocs(s string) []map[string]any {
	return []map[string]any{
		{"app": map[string]any{"id": "fold-override"}, "root": "working", "states": map[string]any{"working": map[string]any{
			"description": s, "view": s, "e": map[string]any{}, "l": []any{}, "n": nil, "on": map[string]any{
				"finish": []any{map[string]any{"target": s, "effects": []any{map[string]any{"set": map[string]any{"pr_url": s, "k": 3, "b": true}}}}},
				"bail":   []any{map[string]any{"target": "@exit:abandoned"}}},
			"list": []any{s, 1, false, nil, []any{s, "y", []any{}}, map[string]any{}, map[string]any{"a": s, "b": []any{s}}}}}},
		{"app": map[string]any{"id": "fold-override"}, "root": "fold_override", "states": map[string]any{"fold_override": map[string]any{}},
			"intents": map[string]any{"go": map[string]any{"description": s, "examples": []any{s, "go"}, "slots": map[string]any{"url": map[string]any{"type": "string"}}}}},
		{"app": map[string]any{"id": "x"}, "k": s},
		{"app": map[string]any{"id": "x"}, "bad_Key": s},
		{"app": map[string]any{"id": "x"}, "f": 1.5, "i": int64(2)},
	}
}

// TestEncodeOverrideIsMarshal checks encodeOverride's bytes against
// yaml.Marshal's wherever it writes a document itself.
func TestEncodeOverrideIsMarshal(t *testing.T) {
	wrote := 0
	for _, s := range overrideStrings {
		for _, doc := range overrideDocs(s) {
			got, ok := encodeOverride(doc)
			if !ok {
				continue
			}
			wrote++
			want, err := yaml.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("string %q: encodeOverride =\n%s\nyaml.Marshal =\n%s", s, got, want)
			}
		}
	}
	if wrote < len(overrideStrings) {
		t.Errorf("encodeOverride wrote only %d documents itself", wrote)
	}
}

// TestEncodeOverrideCorpus: the corpus's override (imports_smoke) is
// written without yaml.Marshal, with its bytes.
func TestEncodeOverrideCorpus(t *testing.T) {
	st, _ := story.Load(corpus+"/imports_smoke/parent", story.Options{Trees: storyload.Trees()})
	if st == nil || st.Imports["sub"] == nil || st.Imports["sub"].Overrides == nil {
		t.Skip("no imports_smoke corpus story")
	}
	ov := st.Imports["sub"].Overrides
	for name, v := range ov.States {
		doc := map[string]any{"app": map[string]any{"id": "fold-override"}, "root": name, "states": map[string]any{name: v}}
		got, ok := encodeOverride(doc)
		if !ok {
			t.Fatalf("override %s: encodeOverride left it to yaml.Marshal", name)
		}
		want, _ := yaml.Marshal(doc)
		if !bytes.Equal(got, want) {
			t.Errorf("override %s: encodeOverride =\n%s\nyaml.Marshal =\n%s", name, got, want)
		}
	}
}

func FuzzEncodeOverride(f *testing.F) {
	for _, s := range overrideStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, doc := range overrideDocs(s) {
			got, ok := encodeOverride(doc)
			if !ok {
				continue
			}
			want, err := yaml.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("string %q: encodeOverride =\n%s\nyaml.Marshal =\n%s", s, got, want)
			}
		}
	})
}
