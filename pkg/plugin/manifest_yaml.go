package plugin

import (
	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// readManifest reads a manifest's document n through w: an unknown key
// suggests the known one meant, a value of the wrong YAML type is named at
// its place, and every finding comes back as one error.
func readManifest(w *yamlnode.Walker, n *yaml.Node) (*Manifest, error) {
	m := &Manifest{}
	w.FieldsAt(n, yamlnode.Place{Where: "top level"}, yamlnode.Place{}, diag.Error, yamlnode.Fields{
		{Key: "id", Str: &m.ID},
		{Key: "version", Str: &m.Version},
		{Key: "summary", Str: &m.Summary},
		{Key: "provides", Read: func(_, v *yaml.Node) { m.Provides = w.DecodedStrList(v, "provides") }},
		{Key: "requires", Read: func(_, v *yaml.Node) { m.Requires = w.DecodedStrList(v, "requires") }},
		{Key: "hooks", Read: func(_, v *yaml.Node) {
			if d := yamlnode.Deref(v); d != nil && d.Kind == yaml.SequenceNode {
				m.Hooks = make([]ManifestHook, 0, len(d.Content)) // [] is no null
			}
			w.Seq(v, "hooks", func(i int, it *yaml.Node) {
				if yamlnode.IsNull(it) {
					return // yaml.v3 leaves a null item out
				}
				var h ManifestHook
				w.Fields(it, yamlnode.Indexed("hooks", i), yamlnode.Fields{
					{Key: "point", Read: func(_, v *yaml.Node) { h.Point = Point(w.Str(v, yamlnode.Indexed("hooks", i)+".point")) }},
					{Key: "on_error", Str: &h.OnError},
				})
				m.Hooks = append(m.Hooks, h)
			})
		}},
		{Key: "hosts", Read: func(_, v *yaml.Node) { m.Hosts = w.DecodedStrList(v, "hosts") }},
		{Key: "entry", Read: func(_, v *yaml.Node) { readManifestEntry(w, v, &m.Entry) }},
	}, nil)
	return m, w.Err()
}

// readManifestEntry reads the entry: mapping v into e.
func readManifestEntry(w *yamlnode.Walker, v *yaml.Node, e *ManifestEntry) {
	w.Fields(v, "entry", yamlnode.Fields{
		{Key: "command", Str: &e.Command},
		{Key: "args", Read: func(_, v *yaml.Node) { e.Args = w.DecodedStrList(v, "entry.args") }},
		{Key: "timeout_ms", Read: func(_, v *yaml.Node) { e.TimeoutMS = yamlnode.Decoded[int](w, v, "entry.timeout_ms", "an integer") }},
		{Key: "sha256", Str: &e.SHA256},
	})
}
