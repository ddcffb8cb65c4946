package story

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

func (p *fileParser) parseImport(alias string, k, v *yaml.Node) *Import {
	im := &Import{Alias: alias, Pos: p.Pos(k), Exits: map[string]*ImportExit{}, HostBindings: map[string]string{}, Keys: map[string]Pos{}}
	where := "imports." + alias
	if yamlnode.IsNull(v) {
		p.Errf(p.Pos(k), RuleImports, "imports.%s: empty definition", alias)
		return im
	}
	at := yamlnode.Place{Where: where}
	p.FieldsAt(v, at, at, diag.Error, yamlnode.Fields{
		{Key: "source", Str: &im.Source},
		{Key: "version", Str: &im.Version},
		{Key: "entry", Str: &im.Entry},
		{Key: "exits", Read: func(_, v *yaml.Node) {
			w := where + ".exits"
			p.Mapping(v, w, nil, func(en string, ek, ev *yaml.Node) {
				ie := &ImportExit{Pos: p.Pos(ek)}
				p.Fields(ev, w+"."+yamlnode.KeyText(en), yamlnode.Fields{
					{Key: "to", Str: &ie.To, Pos: &ie.ToPos},
					{Key: "set", Read: func(_, fv *yaml.Node) { ie.Set = p.kvList(fv, w+"."+yamlnode.KeyText(en)+".set") }},
				})
				im.Exits[en] = ie
			})
		}},
		{Key: "world_in", Read: func(_, v *yaml.Node) { im.WorldIn = p.worldIn(v, where) }},
		{Key: "hosts", Str: &im.Hosts},
		{Key: "intents", Read: func(_, v *yaml.Node) {
			names := func(fv *yaml.Node, f string) []string {
				if d := yamlnode.Deref(fv); d != nil && d.Kind == yaml.MappingNode {
					return yamlnode.Keys(d)
				}
				return p.StrList(fv, where+".intents."+f)
			}
			p.Fields(v, where+".intents", yamlnode.Fields{
				{Key: "export", Read: func(_, fv *yaml.Node) { im.ExportIntent = names(fv, "export") }},
				{Key: "import", Read: func(_, fv *yaml.Node) { im.ImportIntent = names(fv, "import") }},
			})
		}},
		{Key: "overrides", Read: func(kk, v *yaml.Node) {
			ov := &ImportOverrides{Pos: p.Pos(kk), file: p.File, dir: p.dir}
			p.Fields(v, where+".overrides", yamlnode.Fields{
				{Key: "states", Read: func(_, fv *yaml.Node) { ov.States = p.overrideNodes(fv) }},
				{Key: "intents", Read: func(_, fv *yaml.Node) { ov.Intents = p.overrideNodes(fv) }},
				{Key: "prompts", Read: func(_, fv *yaml.Node) { ov.Prompts = p.StrMap(fv, where+".overrides.prompts") }},
			})
			im.Overrides = ov
		}},
		{Key: "host_bindings", Read: func(_, v *yaml.Node) { im.HostBindings = p.StrMap(v, where+".host_bindings") }},
	}, func(key string, _, v *yaml.Node) {
		im.Keys[key] = p.Pos(v)
		p.recordItems(im.Keys, key, v)
	})
	return im
}

// recordItems records in keys the position of each item below v, two
// levels deep ("<prefix>.<key>", "<prefix>.<item>").
func (p *fileParser) recordItems(keys map[string]Pos, prefix string, v *yaml.Node) {
	d := yamlnode.Deref(v)
	if d == nil {
		return
	}
	switch d.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(d.Content); i += 2 {
			k := prefix + "." + d.Content[i].Value
			if _, ok := keys[k]; !ok {
				keys[k] = p.Pos(d.Content[i+1])
				keys[k+keySuffix] = p.Pos(d.Content[i])
				if strings.Count(k, ".") < 2 {
					p.recordItems(keys, k, d.Content[i+1])
				}
			}
		}
	case yaml.SequenceNode:
		for _, it := range d.Content {
			if it.Kind == yaml.ScalarNode {
				if k := prefix + "." + it.Value; keys[k] == (Pos{}) {
					keys[k] = p.Pos(it)
				}
			}
		}
	}
}

// kvList decodes a mapping into ordered key/value pairs with raw values.
func (p *fileParser) kvList(n *yaml.Node, where string) []KV {
	return yamlnode.MappingList(p.Walker, n, where, func(key string, _, v *yaml.Node) KV {
		return KV{Key: key, Value: p.Raw(v), Pos: p.ValuePos(v)}
	})
}

func (p *fileParser) parseInterface(name string, k, v *yaml.Node) *HostInterface {
	if yamlnode.IsNull(yamlnode.Deref(v)) {
		return nil
	}
	hi := &HostInterface{Name: name, Pos: p.Pos(k), Operations: map[string]*Operation{}}
	where := "host_interfaces." + name
	p.Fields(v, where, yamlnode.Fields{
		{Key: "description", Str: &hi.Description},
		{Key: "operations", Read: func(_, v *yaml.Node) {
			p.Mapping(v, where+".operations", nil, func(op string, ok, ov *yaml.Node) {
				o := &Operation{Pos: p.Pos(ok)}
				// Decoded strictly, as upstream: an unknown key does not load there.
				at := yamlnode.Place{Where: where + ".operations." + op}
				p.FieldsAt(ov, at, at, diag.Error, yamlnode.Fields{{Key: "input", Raw: &o.Input}, {Key: "output", Raw: &o.Output}}, nil)
				hi.Operations[op] = o
			})
		}},
		{Key: "default", Str: &hi.Default},
	})
	return hi
}
