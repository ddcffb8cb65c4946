package lint

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleAgentInvoke = &Rule{ID: "agent-invoke", Severity: diag.Error, Summary: "host.agent.<verb> invokes: verb, with.agent persona, verb/tool cross-checks",
	Example: "- invoke: host.agent.ponder"}

var ruleAgentAlias = &Rule{ID: "agent-alias", Severity: diag.Warning, LintOnly: true,
	Summary: "an effect-level agent: alias is declared in agent_plugins (upstream silently falls back to agent.claude)",
	Example: "- {invoke: host.agent.ask, agent: agent.nope}"}

var (
	mutationTools = []string{"Edit", "Write", "NotebookEdit"}
	networkTools  = []string{"WebFetch", "WebSearch"}
	readOnlyArgv0 = []string{"cat", "grep", "rg", "git", "jq", "yq", "find", "ls", "head", "tail", "wc", "diff", "awk", "sed", "sort", "echo", "true", "false", "stat", "file", "which", "type"}
)

// tool is a persona's tools: entry by its bare name: upstream normalises
// each to host.<Name>, so Read and host.Read are one tool.
func tool(t string) string { return strings.TrimPrefix(t, "host.") }

// hasTool reports whether pe's tools hold one of names (bare names).
func hasTool(pe *story.Persona, names ...string) bool {
	return slices.ContainsFunc(pe.Tools, func(t string) bool { return slices.Contains(names, tool(t)) })
}

// checkAgentInvokes: host.agent.<verb> invokes (reference §8): verb,
// agent: alias, with.agent persona, verb/tool cross-checks.
func checkAgentInvokes(c *checker) {
	personaVerbs := map[string][]string{}
	c.eachEffect(func(e *story.Effect, site effSite) {
		verb := agentVerb(e.Invoke)
		if e.Invoke != "" && !story.IsTemplated(e.Invoke) && verb == "" {
			checkNonAgentWith(c, e, site)
			return
		}
		if verb == "" {
			return
		}
		checkAgentVerb(c, e, site, verb)
		checkAgentAlias(c, e, site)
		persona := withString(e, "agent")
		pe := checkPersonaRef(c, e, site, persona)
		if pe != nil && !site.Inline { // upstream counts no reference in an inline effects: list
			personaVerbs[persona] = append(personaVerbs[persona], verb)
		}
		if prov, provs := withString(e, "provider"), foldedProviders(c.st); prov != "" && !story.TemplatedAt(story.FieldProvider, prov) && provs[prov] == nil {
			c.rep.Errf(e.WithPos("provider"), story.RuleProvider, "provider reference %q at %s with.provider is undefined (known providers: %s)", prov, foldedSite(c.st, site.EffectPlace), knownList(sortedMapKeys(provs)))
		}
		if verb == "task" {
			checkTaskInvoke(c, e, site, persona, pe)
		}
		if pe != nil && (verb == "ask" || verb == "decide" || verb == "extract") {
			checkReadOnlyTools(c, e, site, persona, pe, verb)
		}
		if verb == "decide" || verb == "extract" {
			checkValidatorArgv0(c, e, site)
		}
	})
	checkBashProfiles(c, personaVerbs)
}

// checkNonAgentWith: with.agent, with.provider and agent: only mean
// something on host.agent.*.
func checkNonAgentWith(c *checker, e *story.Effect, site effSite) {
	for _, k := range []string{"agent", "provider"} {
		if _, ok := e.With[k]; ok {
			c.rep.ErrAt(e.WithPos(k), site.Place(), ruleAgentInvoke, "%s: with.%s is only meaningful on host.agent.* invocations (got invoke %q)", site.String(), k, e.Invoke)
		}
	}
	if e.Agent() != "" {
		c.rep.WarnAt(e.PosOf("agent"), site.Place(), ruleAgentInvoke, "%s: agent: %q selects an agent transport and only applies to host.agent.* invokes (got invoke %q)", site.String(), e.Agent(), e.Invoke)
	}
}

func checkAgentVerb(c *checker, e *story.Effect, site effSite, verb string) {
	switch {
	case slices.Contains(agentVerbs, verb):
	case verb == searchVerb:
		if c.st.Routing.Embedding() == nil {
			c.rep.WarnAt(e.PosOf("invoke"), site.Place(), ruleAgentInvoke, "%s: host.agent.search has no embedder: the story declares no routing.embedding, so every call answers the domain error \"host.agent.search: no embedder configured\" (as upstream's flow runner does); declare routing.embedding.endpoint (a running llama-server --embeddings) or routing.embedding.model", site.String())
		}
	case slices.Contains(upstreamOnlyVerbs, verb):
		c.rep.WarnAt(e.PosOf("invoke"), site.Place(), ruleAgentInvoke, "%s: host.agent.%s is an upstream handler that kitsoki run does not dispatch (supported verbs: %s)", site.String(), verb, strings.Join(agentVerbs, ", "))
	default:
		// upstream loads it and calls it as a plain host handler: a flow
		// stub answers it, and unstubbed it fails "no handler registered"
		msg := fmt.Sprintf("%s: unknown agent verb %q in invoke %q (supported: %s): no agent is asked: it loads and runs as a plain host call, answered by a flow stub of that name and otherwise failing `host: no handler registered` (as upstream)", site.String(), verb, e.Invoke, strings.Join(agentVerbs, ", "))
		if s := yamlnode.Suggest(verb, agentVerbs); s != "" {
			msg += "; " + yamlnode.Meant("host.agent."+s)
		}
		c.rep.Warnf(e.PosOf("invoke"), ruleAgentInvoke, "%s", msg)
	}
}

func checkAgentAlias(c *checker, e *story.Effect, site effSite) {
	alias := e.Agent()
	if alias == "" || story.TemplatedAt(story.FieldAgentAlias, alias) || c.aliasDeclared(alias) {
		return
	}
	aliases := c.declaredAliases()
	where := ""
	if c.st.AgentPlugins[alias] != nil || c.st.PluginDeclared(alias) {
		where = "; this imported story declares it, but the fold keeps only the top story's agent_plugins (on both engines): declare it there"
	}
	c.rep.WarnAt(e.PosOf("agent"), site.Place(), ruleAgentAlias, "%s: agent %q is not declared in agent_plugins (%s); upstream would silently fall back to agent.claude%s%s",
		site.String(), alias, c.declaredAliasText(), where, c.didYouMean(alias, aliases))
}

// aliasDeclared reports whether the top story's agent_plugins declares
// alias: the registry a run builds holds no imported story's
// (docs/compat/fold.md "Not folded").
func (c *checker) aliasDeclared(alias string) bool {
	top := foldedTop(c.st)
	return top.AgentPlugins[alias] != nil || top.PluginDeclared(alias)
}

// checkPersonaRef: with.agent is a declared (or lifted) persona; it
// returns the persona when it is declared here.
func checkPersonaRef(c *checker, e *story.Effect, site effSite, persona string) *story.Persona {
	if _, has := e.With["agent"]; has && persona == "" {
		c.rep.ErrAt(e.WithPos("agent"), site.Place(), ruleAgentInvoke, "%s: with.agent must be a persona name string", site.String())
	}
	if persona == "" || story.TemplatedAt(story.FieldPersona, persona) {
		return nil
	}
	pe := c.st.Agents[persona]
	if pe != nil || lifted(c.st, "agent", persona) || importerHas(c.st, "agent", persona) {
		return pe // nil for a lifted persona
	}
	if site.Template {
		// upstream checks the states phases: generates, naming each
		// ("a_x", "b_x"): checkExpanded reports them (expandedRules)
		return nil
	}
	c.rep.ErrAt(e.WithPos("agent"), site.Place(), ruleAgentInvoke, "%s: with.agent %q is not declared in agents%s", site.String(), persona, c.didYouMean(persona, c.listOnce("agents", func() []string { return sortedMapKeys(c.st.Agents) })))
	return nil
}

// checkTaskInvoke: host.agent.task needs acceptance.schema, and its
// persona cannot deny external side effects yet hold network tools.
func checkTaskInvoke(c *checker, e *story.Effect, site effSite, persona string, pe *story.Persona) {
	acc, _ := e.With["acceptance"].(map[string]any)
	if sch, ok := acc["schema"]; !ok || sch == nil || sch == "" {
		c.rep.ErrAt(e.PosOf("invoke"), site.Place(), ruleAgentInvoke, "%s: host.agent.task requires acceptance.schema to be set in the with: block", site.String())
	}
	if pe == nil || pe.ExternalSideEffect == nil || *pe.ExternalSideEffect {
		return
	}
	for _, t := range pe.Tools {
		if slices.Contains(networkTools, tool(t)) {
			c.rep.ErrAt(e.WithPos("agent"), site.Place(), ruleAgentInvoke, "%s: agent %q declares external_side_effect: false but has %q in tools — these declarations contradict each other; an agent with network tools implies external side effects (Mode C). Remove external_side_effect: false or remove the network tool.", site.String(), persona, "host."+tool(t))
		}
	}
}

func checkReadOnlyTools(c *checker, e *story.Effect, site effSite, persona string, pe *story.Persona, verb string) {
	for _, t := range pe.Tools {
		if slices.Contains(mutationTools, tool(t)) {
			c.rep.ErrAt(e.WithPos("agent"), site.Place(), ruleAgentInvoke, "%s: agent %q declares mutation tool %q — not permitted for host.agent.%s (read-only verb); use host.agent.task for agentic work", site.String(), persona, "host."+tool(t), verb)
		}
	}
}

// checkValidatorArgv0: a validator.post_cmd starts with a read-only program.
func checkValidatorArgv0(c *checker, e *story.Effect, site effSite) {
	v, ok := e.With["validator"].(map[string]any)
	if !ok {
		return
	}
	cmd, ok := v["post_cmd"].(string)
	if !ok || cmd == "" || story.IsTemplated(cmd) {
		return
	}
	if f := strings.Fields(cmd); len(f) > 0 && !slices.Contains(readOnlyArgv0, f[0][strings.LastIndexByte(f[0], '/')+1:]) {
		c.rep.WarnAt(e.PosOf("with"), site.Place(), ruleAgentInvoke, "%s: agent verb cross-check: decide/extract validator.post_cmd argv0 %q is not on the read-only allowlist; runtime sandbox enforces isolation", site.String(), f[0])
	}
}

// checkBashProfiles: a persona with Bash used by ask/decide has a bash_profile.
func checkBashProfiles(c *checker, personaVerbs map[string][]string) {
	for _, name := range sortedMapKeys(personaVerbs) {
		pe := c.st.Agents[name]
		if pe == nil || pe.BashProfile != nil || !hasTool(pe, "Bash") {
			continue
		}
		if vs := personaVerbs[name]; slices.Contains(vs, "ask") || slices.Contains(vs, "decide") {
			c.rep.Errf(pe.Pos, story.RulePersona, "agent %q declares Bash but no bash_profile; required when the agent is referenced by host.agent.ask or host.agent.decide (those verbs run every Bash command through a profile allowlist)", name)
		}
	}
}

func knownList(names []string) string {
	if len(names) == 0 {
		return "(none declared)"
	}
	return strings.Join(names, ", ")
}

// declaredAliases is the top story's sorted agent_plugins aliases
// (aliasDeclared), listed once.
func (c *checker) declaredAliases() []string {
	return c.listOnce("agent_plugins", func() []string { return sortedMapKeys(foldedTop(c.st).AgentPlugins) })
}

// declaredAliasText lists the aliases the top story declares itself
// and names agent.claude apart when the loader added it: "declared:
// agent.fast; agent.claude is the loader's default".
func (c *checker) declaredAliasText() string {
	plugins := foldedTop(c.st).AgentPlugins
	var own []string
	for _, a := range c.declaredAliases() {
		if p := plugins[a]; p == nil || !p.Injected {
			own = append(own, a)
		}
	}
	deflt := ""
	if p := plugins[story.DefaultAgentAlias]; p != nil && p.Injected {
		deflt = story.DefaultAgentAlias + " is the loader's default"
	}
	switch {
	case len(own) == 0 && deflt == "":
		return "none declared"
	case len(own) == 0:
		return deflt
	case deflt == "":
		return "declared: " + nameList(own, ", ")
	}
	return "declared: " + nameList(own, ", ") + "; " + deflt
}
