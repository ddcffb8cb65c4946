package story

import (
	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

func (p *fileParser) parsePersona(name string, k, v *yaml.Node) *Persona {
	pe := &Persona{Name: name, Pos: p.Pos(k), Dir: p.dir}
	if yamlnode.IsNull(v) {
		p.Errf(p.Pos(k), RulePersona, "agent %q: empty definition", name)
		return pe
	}
	where := "agents." + name
	p.Fields(v, where, yamlnode.Fields{
		{Key: "system_prompt", Str: &pe.SystemPrompt},
		{Key: "system_prompt_path", Str: &pe.SystemPromptPath},
		{Key: "model", Str: &pe.Model},
		{Key: "tools", List: &pe.Tools},
		{Key: "cwd", Str: &pe.Cwd},
		{Key: "effort", Str: &pe.Effort},
		{Key: "provider", Str: &pe.Provider},
		{Key: "inherit_claude_default", BoolP: &pe.InheritClaudeDefault},
		{Key: "bash_profile", Read: func(_, v *yaml.Node) { pe.BashProfile = p.parseBashProfile(v, where+".bash_profile") }},
		{Key: "external_side_effect", BoolP: &pe.ExternalSideEffect},
	})
	return pe
}

func (p *fileParser) parseBashProfile(v *yaml.Node, where string) *BashProfile {
	bp := &BashProfile{Pos: p.Pos(v)}
	d := yamlnode.Deref(v)
	if yamlnode.IsNull(d) {
		return nil
	}
	if d.Kind == yaml.ScalarNode {
		if d.Value == "read-only" {
			bp.ReadOnly = true
			return bp
		}
		p.Errf(p.Pos(v), RulePersona, `%s: unrecognised form %q; expected "read-only", {commands:[...]}, or {sandboxed_write:<dir>}`, where, d.Value)
		return bp
	}
	n := 0
	at := yamlnode.Place{Where: where}
	p.FieldsAt(v, at, at, diag.Error, yamlnode.Fields{{Key: "commands", List: &bp.Commands}, {Key: "sandboxed_write", Str: &bp.SandboxedWrite}},
		func(string, *yaml.Node, *yaml.Node) { n++ })
	switch n {
	case 0:
		p.Errf(p.Pos(v), RulePersona, `%s: unrecognised form; expected "read-only", {commands:[...]}, or {sandboxed_write:<dir>}`, where)
	case 2:
		// Upstream loads both; they are different postures, so say which to keep.
		p.Warnf(p.Pos(v), RulePersona, `%s: sets both commands: and sandboxed_write:, which are different profiles (an allowlist of commands, or writes confined to a directory); upstream loads it, keep the one you mean`, where)
	}
	return bp
}

func (p *fileParser) parseProviderShape(name string, k, v *yaml.Node) *Provider {
	pr := &Provider{Name: name, Pos: p.Pos(k), Env: map[string]string{}}
	where := "providers." + name
	if yamlnode.IsNull(v) {
		pr.declaredEmpty = true // reported by resolveProviders, a top story's only
		return pr
	}
	p.Fields(v, where, yamlnode.Fields{
		{Key: "model", Str: &pr.Model},
		{Key: "effort", Str: &pr.Effort},
		{Key: "env", Read: func(_, v *yaml.Node) {
			pr.Env = p.StrMap(v, where+".env")
			if d := yamlnode.Deref(v); d != nil && d.Kind == yaml.MappingNode {
				pr.envPos = map[string]Pos{}
				for i := 0; i+1 < len(d.Content); i += 2 {
					pr.envPos[d.Content[i].Value] = p.Pos(d.Content[i+1])
				}
			}
		}},
	})
	return pr
}
