package fetch

import (
	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// readPinFile reads a pin file's document n through w: an unknown key
// suggests the known one meant, a value of the wrong YAML type is named at
// its place, and every finding comes back as one error. Values read as
// yaml.v3 decodes them into pinFile.
func readPinFile(w *yamlnode.Walker, n *yaml.Node) (pinFile, error) {
	var f pinFile
	section := func(name string, into *map[string]*Artifact) yamlnode.Field {
		return yamlnode.Field{Key: name, Read: func(_, v *yaml.Node) { *into = readArtifacts(w, v, name) }}
	}
	w.FieldsAt(n, yamlnode.Place{Where: "top level"}, yamlnode.Place{}, diag.Error, yamlnode.Fields{
		section("llama_server", &f.LlamaServer),
		section("models", &f.Models),
		section("shims", &f.Shims),
	}, nil)
	return f, w.Err()
}

// readArtifacts reads the mapping v of a section (key -> artifact); an
// entry given as null is nil, which merge refuses as empty.
func readArtifacts(w *yamlnode.Walker, v *yaml.Node, section string) map[string]*Artifact {
	out := map[string]*Artifact{}
	w.Mapping(v, section, nil, func(key string, _, a *yaml.Node) {
		out[key] = readArtifact(w, a, section+"."+yamlnode.KeyText(key))
	})
	return out
}

// readArtifact reads one pin, named where; nil for null.
func readArtifact(w *yamlnode.Walker, n *yaml.Node, where string) *Artifact {
	if yamlnode.IsNull(n) {
		return nil
	}
	a := &Artifact{}
	w.Fields(n, where, yamlnode.Fields{
		{Key: "id", Str: &a.ID},
		{Key: "release", Str: &a.Release},
		{Key: "url", Str: &a.URL},
		{Key: "sha256", Str: &a.SHA256},
		{Key: "size", Read: func(_, v *yaml.Node) { a.Size = yamlnode.Decoded[int64](w, v, where+".size", "an integer") }},
		{Key: "format", Str: &a.Format},
		{Key: "members", Read: func(_, v *yaml.Node) { a.Members = w.DecodedStrList(v, where+".members") }},
		{Key: "extract", Read: func(_, v *yaml.Node) {
			if !yamlnode.IsNull(v) {
				a.Extract = w.StrMap(v, where+".extract")
			}
		}},
		{Key: "requires", Read: func(_, v *yaml.Node) {
			if yamlnode.IsNull(v) {
				return
			}
			a.Requires = &Requires{}
			w.Fields(v, where+".requires", yamlnode.Fields{
				{Key: "glibc", Str: &a.Requires.Glibc},
				{Key: "glibcxx_minor", Read: func(_, v *yaml.Node) {
					a.Requires.GLIBCXXMinor = yamlnode.Decoded[int](w, v, where+".requires.glibcxx_minor", "an integer")
				}},
			})
		}},
		{Key: "default", Read: func(_, v *yaml.Node) { a.Default = yamlnode.Decoded[bool](w, v, where+".default", "true or false") }},
	})
	return a
}
