package fetch

import (
	"io/fs"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pins"
)

// TestPinFileReadsAsYAMLv3: every pin file yaml.v3 decoded into pinFile
// (the embedded ones and edge readings: a number with a point, a YAML 1.1
// bool word, a null list item, null and empty sections, merge keys) reads
// the same through the Walker, once merge has refused a key given twice.
func TestPinFileReadsAsYAMLv3(t *testing.T) {
	srcs := []string{
		"models: {m: {id: m, url: 'http://x/m', default: yes, members: [a, ~, 1], size: 2.5, extract: {1: ~, b: c}}}\n",
		"models: ~\nshims: {}\nllama_server: {linux/amd64: {id: l, requires: {}}, darwin/arm64: {requires: ~, size: 0x10}}\n",
		"models: {a: {<<: {id: a, url: u}, id: b}, b: {id: b, <<: {id: a}}}\n",
		"models:\n  m: {<<: [{id: a, size: 1}, {id: b}], url: u}\n  n: ~\n",
		"models:\n  m: {<<: [{id: a, size: 1}, {url: b}], format: f}\n",
		"",
		"# comments only\n",
	}
	names, _ := fs.Glob(pins.FS(), "*.yaml")
	for _, name := range names {
		data, _ := fs.ReadFile(pins.FS(), name)
		srcs = append(srcs, string(data))
	}
	for _, src := range srcs {
		var want pinFile
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Content) == 0 {
			continue
		}
		if err := doc.Decode(&want); err != nil {
			if _, known := err.(*yaml.TypeError); !known {
				t.Fatal(err)
			}
			continue // an unknown key: checked below
		}
		if at, _ := yamlnode.RepeatedKey(&doc, reflect.TypeFor[pinFile](), "pin file"); at != nil {
			continue // refused before it is read (merge): no reading to match
		}
		got, err := readPinFile(yamlnode.NewFileWalker("p.yaml", len(src)), doc.Content[0])
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		for _, pair := range [][2]map[string]*Artifact{{got.Models, want.Models}, {got.LlamaServer, want.LlamaServer}, {got.Shims, want.Shims}} {
			if len(pair[0]) != 0 || len(pair[1]) != 0 {
				if !reflect.DeepEqual(pair[0], pair[1]) {
					for k := range pair[1] {
						t.Errorf("%q: %s:\n got %+v\nwant %+v", src, k, pair[0][k], pair[1][k])
					}
				}
			}
		}
	}
}
