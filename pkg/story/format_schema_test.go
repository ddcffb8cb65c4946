package story

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"kitsoki/internal/testing/storytest"
)

// Every corpus and upstream-compatible story file validates against the
// published format schema (no false positive for an editor), and a story
// with an unknown key does not.
func TestFormatSchemaAcceptsTheCorpus(t *testing.T) {
	raw, err := json.Marshal(FormatSchema())
	if err != nil {
		t.Fatal(err)
	}
	sch := storytest.CompileSchema(t, "app.json", raw)
	var files []string
	for _, root := range []string{storytest.CorpusDir(), "testdata/upstream"} {
		_ = filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() && (fi.Name() == "app.yaml" || filepath.Base(filepath.Dir(p)) == "rooms") && strings.HasSuffix(p, ".yaml") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) < 20 {
		t.Fatalf("only %d story files found", len(files))
	}
	check := func(name string, data []byte) error {
		var v any
		if err := yaml.Unmarshal(data, &v); err != nil {
			return nil // not this test's concern
		}
		b, err := json.Marshal(jsonable(v))
		if err != nil {
			return err
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
		if err != nil {
			return err
		}
		return sch.Validate(inst)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := check(f, data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if err := check("typo", []byte("app: {id: x}\nroot: a\nstates:\n  a:\n    on_entr: []\n")); err == nil {
		t.Error("a state with an unknown key validates against the schema")
	}
}

// jsonable turns YAML-decoded values into JSON-encodable ones.
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
		return x
	case map[any]any:
		m := map[string]any{}
		for k, e := range x {
			b, _ := json.Marshal(k)
			m[strings.Trim(string(b), `"`)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
		return x
	}
	return v
}
