package story

import (
	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

func (p *fileParser) parsePhaseTemplate(name string, k, v *yaml.Node) *PhaseTemplate {
	pt := &PhaseTemplate{Name: name, Pos: p.Pos(k), Parameters: map[string]*PhaseParam{}}
	where := "phase_templates." + name
	p.Fields(v, where, yamlnode.Fields{
		{Key: "parameters", Read: func(_, v *yaml.Node) {
			p.Mapping(v, where+".parameters", nil, func(pn string, pk, pv *yaml.Node) {
				pp := &PhaseParam{Pos: p.Pos(pk)}
				// Decoded strictly, as upstream: a description is unknown there.
				at := yamlnode.Place{Where: where + ".parameters." + pn}
				p.FieldsAt(pv, at, at, diag.Error, yamlnode.Fields{
					{Key: "type", Str: &pp.Type},
					{Key: "required", Bool: &pp.Required},
					{Key: "default", Raw: &pp.Default},
				}, nil)
				pt.Parameters[pn] = pp
			})
		}},
		{Key: "states", Read: func(_, v *yaml.Node) { pt.States = p.parseStates(v, nil, where+".states") }},
	})
	return pt
}

func (p *fileParser) parsePhases(k, v *yaml.Node) *Phases {
	if yamlnode.IsNull(yamlnode.Deref(v)) {
		return nil // phases: ~ declares no phases, as upstream reads it
	}
	ph := &Phases{Pos: p.Pos(k), Graph: map[string]*PhaseNode{}}
	p.Fields(v, "phases", yamlnode.Fields{
		{Key: "template", Str: &ph.Template},
		{Key: "graph", Read: func(_, v *yaml.Node) {
			p.Mapping(v, "phases.graph", nil, func(id string, gk, gv *yaml.Node) {
				pn := &PhaseNode{ID: id, Pos: p.Pos(gk), Params: map[string]any{}}
				if yamlnode.IsNull(gv) {
					p.Errf(p.Pos(gk), RulePhases, "phases.graph[%q]: empty entry", id)
				}
				p.Mapping(gv, "phases.graph."+id, nil, func(key string, _, v *yaml.Node) {
					switch key {
					case "next":
						pn.Next = p.Raw(v)
					case "cycle_budgets":
						pn.CycleBudgets = p.Raw(v)
					case "on_enter":
						pn.OnEnter = p.parseEffects(v, "phases.graph."+id+".on_enter")
					default:
						pn.Params[key] = p.Raw(v)
					}
				})
				ph.Graph[id] = pn
				ph.Order = append(ph.Order, id)
			})
		}},
	})
	return ph
}
