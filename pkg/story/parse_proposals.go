package story

import (
	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

func (p *fileParser) parseProposal(name string, k, v *yaml.Node) *Proposal {
	pr := &Proposal{Name: name, Pos: p.Pos(k)}
	where := "proposals." + name
	// Upstream decodes a proposal into typed structs (schema and views maps
	// of strings, draft and refine {prompt}, ...); anything else does not load.
	scalar := func(what string, v *yaml.Node) {
		p.checkShape(v, RuleType, where+"."+what, "a string", yaml.ScalarNode)
	}
	strMap := func(what string) func(_, v *yaml.Node) {
		return func(_, v *yaml.Node) {
			p.Mapping(v, where+"."+what, nil, func(key string, _, kv *yaml.Node) { scalar(what+"."+key, kv) })
		}
	}
	prompt := func(what string) func(_, v *yaml.Node) {
		return func(_, v *yaml.Node) {
			p.Fields(v, where+"."+what, yamlnode.Fields{{Key: "prompt", Read: func(_, v *yaml.Node) { scalar(what+".prompt", v) }}})
		}
	}
	p.Fields(v, where, yamlnode.Fields{
		{Key: "schema", Raw: &pr.Schema, Read: strMap("schema")},
		{Key: "draft", Raw: &pr.Draft, Read: prompt("draft")},
		{Key: "refine", Raw: &pr.Refine, Read: prompt("refine")},
		{Key: "execute", Read: func(kk, v *yaml.Node) {
			ex := &ProposalExecute{Pos: p.Pos(kk)}
			pr.Execute = ex
			p.Fields(v, where+".execute", yamlnode.Fields{
				{Key: "invoke", Str: &ex.Invoke},
				{Key: "with", Read: func(_, v *yaml.Node) { ex.With, _ = p.Raw(v).(map[string]any) }},
				{Key: "repeatable", Bool: &ex.Repeatable},
				{Key: "on_success", Raw: &ex.OnSuccess, Read: func(_, v *yaml.Node) { scalar("execute.on_success", v) }},
				{Key: "background", Bool: &ex.Background},
				{Key: "on_complete", Read: func(_, v *yaml.Node) { ex.OnComplete = p.parseEffects(v, where+".execute.on_complete") }},
			})
		}},
		{Key: "views", Raw: &pr.Views, Read: strMap("views")},
		{Key: "policy", Raw: &pr.Policy, Read: func(_, v *yaml.Node) {
			p.Fields(v, where+".policy", yamlnode.Fields{
				{Key: "auto_accept_if", Read: func(_, v *yaml.Node) { scalar("policy.auto_accept_if", v) }},
				{Key: "require_confirm", Read: func(_, v *yaml.Node) {
					p.checkShape(v, RuleType, where+".policy.require_confirm", "true or false", yaml.ScalarNode, "!!bool")
				}},
			})
		}},
	})
	return pr
}
