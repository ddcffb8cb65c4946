package story

import (
	"go.yaml.in/yaml/v3"

	"kitsoki/internal/duration"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

func (p *fileParser) parseRouting(k, v *yaml.Node) *Routing {
	r := &Routing{Pos: p.Pos(k), Raw: map[string]any{}}
	// Values kitsoki checks but does not use are read into the blanks.
	var (
		blankB *bool
		blankF *float64
	)
	at := yamlnode.Place{Where: "routing"}
	// upstream decodes routing: into a struct: a bool takes no string, an
	// integer takes a float (truncated), a list takes no single string.
	boolean := func(key string, dst **bool) yamlnode.Field {
		return yamlnode.Field{Key: key, Read: func(_, v *yaml.Node) {
			if p.checkShape(v, RuleRouting, "routing."+key, "true or false", yaml.ScalarNode, "!!bool") {
				*dst = p.BoolPtr(v, "routing."+key)
			}
		}}
	}
	integer := func(key string) yamlnode.Field {
		return yamlnode.Field{Key: key, Read: func(_, v *yaml.Node) {
			p.checkShape(v, RuleRouting, "routing."+key, "a number", yaml.ScalarNode, "!!int", "!!float")
		}}
	}
	p.FieldsAt(v, at, at, diag.Error, yamlnode.Fields{
		boolean("enabled", &r.Enabled),
		{Key: "semantic_high_bar", Float: &r.SemanticHighBar},
		{Key: "semantic_mid_bar", Float: &r.SemanticMidBar},
		boolean("cache_enabled", &blankB),
		{Key: "cache_max_age", Read: func(_, v *yaml.Node) {
			if s := p.Str(v, "routing.cache_max_age"); s != "" && !TemplatedAt(FieldCacheMaxAge, s) {
				if _, err := duration.Parse(s); err != nil {
					p.Errf(p.Pos(v), RuleRouting, "routing.cache_max_age: app.ParseDuration: %v", err)
				}
			}
		}},
		{Key: "stopwords_extra", Read: func(_, v *yaml.Node) {
			if p.checkShape(v, RuleRouting, "routing.stopwords_extra", "a list of words", yaml.SequenceNode) {
				p.StrList(v, "routing.stopwords_extra")
			}
		}},
		integer("cache_cap"),
		{Key: "cache_trim_fraction", Float: &blankF},
		integer("revalidate_strikes"),
		boolean("confidence_decay", &blankB),
		boolean("extract_llm_on_no_match", &r.ExtractLLMOnNoMatch),
		{Key: "extract_llm_agent", Str: &r.ExtractLLMAgent},
		{Key: "free_form_fallback", Read: func(_, v *yaml.Node) {
			if yamlnode.IsNull(yamlnode.Deref(v)) {
				return // free_form_fallback: ~ is no fallback, as upstream reads it
			}
			p.Fields(v, "routing.free_form_fallback", yamlnode.Fields{{Key: "state", Str: &r.FreeFormFallbackState}, {Key: "intent", Str: &r.FreeFormFallbackIntent}})
		}},
		{Key: "embedding", Read: func(_, v *yaml.Node) {
			p.Mapping(v, "routing.embedding", []string{"endpoint", "model", "cache_dir", "confident_bar", "margin"}, func(string, *yaml.Node, *yaml.Node) {})
		}},
	}, func(key string, _, v *yaml.Node) { r.Raw[key] = p.Raw(v) })
	return r
}
