package plugin

import (
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// TestManifestReadsAsYAMLv3: a manifest yaml.v3 decoded into Manifest (a
// number with a point for timeout_ms, numbers and bools in a string list,
// a null list item, null and empty values, merge keys) reads the same
// through the Walker, once parseManifest has refused a key given twice.
func TestManifestReadsAsYAMLv3(t *testing.T) {
	for _, src := range []string{
		"id: p\nversion: 1.0\nsummary: ~\nprovides: [a, ~, 1, true]\nrequires: []\nhooks: []\nhosts: [host.git]\nentry: {command: x, args: [-v, 2], timeout_ms: 2.9, sha256: ~}\n",
		"id: p\nhooks: [{point: turn/pre, on_error: veto}, ~, {point: ~}]\nentry: ~\n",
		"x: &e {command: c, args: [a]}\n",
		"id: p\nentry: {<<: [{command: a, timeout_ms: 1}, {args: [z]}], sha256: ''}\n",
		"id: p\nentry: {<<: {command: a}, args: [q]}\nhooks: ~\nhosts: ~\n",
		"~\n",
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		if at, _ := yamlnode.RepeatedKey(&doc, reflect.TypeFor[Manifest](), "plugin manifest"); at != nil {
			t.Fatalf("%q: refused as a repeat", src)
		}
		var want Manifest
		dec := yaml.NewDecoder(strings.NewReader(src))
		dec.KnownFields(true)
		if err := dec.Decode(&want); err != nil {
			continue // an unknown key: TestManifestUnknownKeySuggests
		}
		got, err := readManifest(yamlnode.NewFileWalker("m.yaml", len(src)), doc.Content[0])
		if err != nil || !reflect.DeepEqual(*got, want) {
			t.Errorf("%q:\n got %+v (%v)\nwant %+v", src, got, err, want)
		}
	}
}
