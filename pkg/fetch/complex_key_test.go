package fetch

import (
	"strings"
	"testing"
)

// A mapping or a list used as a key refuses a pin file at its place;
// through a merge yaml.v3's decode failed with "runtime error: hash of
// unhashable type map[string]interface {}".
func TestPinsComplexKey(t *testing.T) {
	for src, want := range map[string]string{
		"models: {<<: , {}: , [x]: }\n":              "p.yaml:1:16: a mapping or a list is used as a key; a key in this pin file",
		"models:\n  x: {id: a, extract: {[x]: 1}}\n": "p.yaml:2:24: a mapping or a list",
	} {
		p := &Pins{LlamaServers: map[string]*Artifact{}, Models: map[string]*Artifact{}, Shims: map[string]*Artifact{}}
		if err := p.merge([]byte(src), "p.yaml"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v\nwant it to contain %q", src, err, want)
		}
	}
}
