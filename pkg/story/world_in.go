package story

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// worldIn reads an import's world_in: block. Each value is the text the
// scalar reads as, as upstream holds world_in (a map of strings); a list
// or mapping is an error (upstream does not load the story).
func (p *fileParser) worldIn(v *yaml.Node, where string) []KV {
	kvs := p.kvList(v, where+".world_in")
	out := kvs[:0]
	for _, kv := range kvs {
		// kvs holds entries only when v is a mapping
		n := yamlnode.Get(yamlnode.Deref(v), kv.Key)
		switch x := kv.Value.(type) {
		case []any, map[string]any:
			p.Errf(kv.Pos, RuleImports, "%s: world_in.%s: %s cannot be projected into the child: world_in values are text or a {{ }} template (quote it, or set the key from the parent's world)", where, kv.Key, yamlnode.KindName(yamlnode.Deref(n)))
			continue
		default:
			kv.Value = worldInText(x, n)
		}
		out = append(out, kv)
	}
	return out
}

// worldInText is the text upstream holds for a world_in scalar v.
func worldInText(v any, n *yaml.Node) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		if d := yamlnode.Deref(n); d != nil && d.ShortTag() == "!!int" {
			// past int64 upstream keeps it unsigned (docs/compat/yaml-numbers.md)
			if u, err := strconv.ParseUint(strings.ReplaceAll(d.Value, "_", ""), 0, 64); err == nil {
				return strconv.FormatUint(u, 10)
			}
		}
	}
	return fmt.Sprint(v)
}
