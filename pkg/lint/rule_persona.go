package lint

import (
	"cmp"
	"path/filepath"
	"slices"
	"strconv"

	"kitsoki/internal/lazyre"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// builtinAgents are agent names meta_modes/off_path/agent_off_ramp may use
// without declaring them.
var builtinAgents = []string{"default-agent", "story-author", "kitsoki-engineer", "story-bug-reporter", "kitsoki-bug-reporter", "story-explainer", "kitsoki-explainer"}

var envRefRe = &lazyre.Regexp{Expr: `\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`}

// checkPersonas: agents: persona rules (reference §3.5, §8.2).
func checkPersonas(c *checker) {
	for _, name := range sortedMapKeys(c.st.Agents) {
		c.checkPersona(name, c.st.Agents[name])
	}
	for _, k := range sortedMapKeys(c.st.MetaModes) {
		mm := c.st.MetaModes[k]
		c.checkAgentRef(mm.Pos, "meta_modes."+liftedName(c.st, k)+".agent", mm.Agent)
		c.checkCwd(mm.Pos, "meta_mode "+strconv.Quote(k), mm.Cwd)
	}
	if op := c.st.OffPath; op != nil && !c.st.Imported() { // a child's off_path is not folded
		c.checkAgentRef(op.Pos, "off_path.agent", op.Agent)
	}
	for _, s := range c.states() {
		if o := s.AgentOffRamp(); o != nil {
			c.checkAgentRef(o.Pos, "states."+s.Path+".agent_off_ramp.agent", o.Agent)
		}
	}
}

// checkPersona checks the persona agents.<name> and resolves its system
// prompt.
func (c *checker) checkPersona(name string, pe *story.Persona) {
	c.resolveSystemPrompt(name, pe)
	if pe.Effort != "" && !slices.Contains(story.ValidEfforts, pe.Effort) {
		c.rep.Errf(pe.Pos, story.RulePersona, "agent %q: effort %q is invalid (valid: low, medium, high, xhigh, max)", name, pe.Effort)
	}
	if provs := foldedProviders(c.st); pe.Provider != "" && !story.TemplatedAt(story.FieldProvider, pe.Provider) && provs[pe.Provider] == nil {
		c.rep.Errf(pe.Pos, story.RuleProvider, "provider reference %q at agents.%s.provider is undefined (known providers: %s)", pe.Provider, liftedName(c.st, name), knownList(sortedMapKeys(provs)))
	}
	c.checkCwd(pe.Pos, "agent "+strconv.Quote(name), pe.Cwd)
	// either way round, as upstream (conformance persona-side-effect)
	if inferred := hasTool(pe, networkTools...); pe.ExternalSideEffect != nil && *pe.ExternalSideEffect != inferred {
		c.rep.Warnf(pe.Pos, story.RulePersona, "agent %q: external_side_effect declaration (%v) disagrees with the value inferred from its tools (%v)", name, *pe.ExternalSideEffect, inferred)
	}
}

// resolveSystemPrompt sets pe.SystemPromptResolved from system_prompt or
// system_prompt_path (exactly one is required).
func (c *checker) resolveSystemPrompt(name string, pe *story.Persona) {
	switch {
	case pe.SystemPrompt != "" && pe.SystemPromptPath != "":
		c.rep.Errf(pe.Pos, story.RulePersona, "agent %q: system_prompt and system_prompt_path are mutually exclusive", name)
	case pe.SystemPrompt == "" && pe.SystemPromptPath == "":
		c.rep.Errf(pe.Pos, story.RulePersona, "agent %q: one of system_prompt or system_prompt_path is required", name)
	case pe.SystemPromptPath != "":
		f := pe.SystemPromptPath
		if !filepath.IsAbs(f) {
			f = filepath.Join(pe.Dir, f)
		}
		data, err, in := c.readNamed(pe.Pos, "agent "+strconv.Quote(name)+": system_prompt_path", pe.SystemPromptPath, f)
		if !in {
			return
		}
		if err != nil {
			c.rep.Errf(pe.Pos, story.RulePersona, "agent %q: system_prompt_path %q: %s", name, f, safefile.ErrText(err))
		} else {
			pe.SystemPromptResolved = string(data)
		}
	default:
		pe.SystemPromptResolved = pe.SystemPrompt
	}
}

// checkAgentRef reports an agent reference (at site) that names no
// persona, built-in, lifted or importer agent.
func (c *checker) checkAgentRef(p story.Pos, site, agent string) {
	if agent == "" || story.TemplatedAt(story.FieldAgentRef, agent) || c.st.Agents[agent] != nil || slices.Contains(builtinAgents, agent) || lifted(c.st, "agent", agent) || importerHas(c.st, "agent", agent) {
		return
	}
	known := c.listOnce("agents+builtin", func() []string {
		// the folded story's: upstream checks a child folded in its importer
		return slices.Sorted(slices.Values(append(foldedAgentNames(foldedTop(c.st)), builtinAgents...)))
	})
	c.rep.Errf(p, story.RulePersona, "agent reference %q at %s is undefined (known agents: %s)", agent, site, nameList(known, ", "))
}

// checkCwd: $VAR / ${VAR} in a cwd must be set (KITSOKI_APP_DIR always is).
func (c *checker) checkCwd(p story.Pos, who, cwd string) {
	sev := c.opts.UnsetEnvSeverity()
	for _, m := range envRefRe.FindAllStringSubmatch(cwd, -1) {
		name := cmp.Or(m[1], m[2])
		if name == "KITSOKI_APP_DIR" {
			continue
		}
		if _, ok := c.opts.Lookup(name); !ok {
			c.rep.Add(p, sev, story.RulePersona, "%s: cwd %q references unset env var %s", who, cwd, name)
		}
	}
}

// foldedAgentNames lists the agents: of st with its imported children's
// under their lifted names (kid__rev), each name once.
func foldedAgentNames(st *story.Story) []string {
	var out []string
	seen := map[string]bool{}
	eachFolded(st, true, func(s *story.Story, prefix string) {
		for _, n := range sortedMapKeys(s.Agents) {
			if !seen[prefix+n] {
				seen[prefix+n] = true
				out = append(out, prefix+n)
			}
		}
	})
	return out
}
