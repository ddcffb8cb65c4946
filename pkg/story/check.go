package story

import (
	"fmt"
	"sort"
)

// checker runs the rules over one loaded story.
type checker struct {
	st  *Story
	rep *reporter
	l   *loader
	cc  *compileCache
	// sites caches the effect walk: every rule visits the same list.
	sites []effectAt
}

type effectAt struct {
	e    *Effect
	site effSite
}

// ruleDef is one check: a stable id, a one-line description, and the pass
// (nil for rules reported while parsing).
type ruleDef struct {
	id   string
	desc string
	run  func(c *checker)
}

// allRules lists every rule in the order the passes run. Rules with a nil
// run are reported by the parser/loader.
var allRules = []ruleDef{
	{"yaml-syntax", "YAML syntax errors and tab indentation", nil},
	{"duplicate-key", "a mapping key is declared twice", nil},
	{"type", "a value has the wrong YAML type (string, list, mapping, bool, number)", nil},
	{"unknown-key", "a key is not part of the story format (with a did-you-mean suggestion)", nil},
	{"io", "a story file cannot be read", nil},
	{"include", "include: globs and the merge of included files", nil},
	{"imports", "imports: children: source, alias, cycles, entry, exits, world_in, hosts, intents, overrides", checkImports},
	{"app", "app.id is required; app.context and app.context_path are exclusive", checkApp},
	{"root", "root names an existing state", checkRoot},
	{"initial", "a compound state's initial names a child; parallel states have 2+ regions and no initial", checkInitial},
	{"state", "state-level value checks: decider, write_mode, transcript, theme, intercept_drive, timeout, off-ramp, default_intent", checkStateValues},
	{"view", "view structure and choice cross-references", checkViews},
	{"target", "transition, on_error, timeout and on_complete targets resolve (absolute, dotted, ../, ., @exit:)", checkTargets},
	{"intent", "intents used in on:, default_intent and emit_intent are declared", checkIntents},
	{"relevant-world", "relevant_world keys are declared in world:", checkRelevantWorld},
	{"hosts", "invokes are in the hosts: allow-list when it is non-empty", checkHosts},
	{"effect", "effect shape: background, on_complete, target, emit_intent rules", checkEffectShape},
	{"agent-plugin", "agent_plugins: declarations (reference §7)", nil},
	{"provider", "providers: declarations and references", nil},
	{"persona", "agents: persona declarations (reference §3.5)", checkPersonas},
	{"agent-invoke", "host.agent.<verb> invokes: verb, agent alias, with.agent persona, verb/tool cross-checks", checkAgentInvokes},
	{"agent-template", "a templated agent: alias that is one world variable renders to declared aliases", checkAgentTemplate},
	{"call-timeout", "an effect's timeout: is a positive duration on a host.agent.* invoke", checkCallTimeout},
	{"agent-file", "prompt, prompt_path and schema files of agent invokes exist", checkAgentFiles},
	{"schema", "agent schemas compile and $refs stay inside schemas/", checkSchemas},
	{"grammar", "decide schemas of a builtin.local_llm grammar: true alias stay in the llama.cpp grammar subset", checkGrammar},
	{"expr", "when: guards compile under kitsoki's expr whitelist", checkExprs},
	{"template", "{{ }} value templates in set/with/slots/emit_intent/bind compile", checkValueTemplates},
	{"pongo", "pongo2 templates in say, views and prompt files compile", checkPongo},
	{"effect-kinds", "warning: an effect carries more than one of set/increment/say/invoke (only the first runs)", checkEffectKinds},
	{"once-bind", "once: true needs a non-empty bind:", checkOnceBind},
	{"bare-expr", "warning: a with: value looks like an expression but has no {{ }}", checkBareExpr},
	{"unreachable", "warning: a state cannot be reached from root", checkUnreachable},
	{"decide-schema", "warning: host.agent.decide without a schema", checkDecideSchema},
	{"selection", "selection: blocks: known keys, evidence file exists", checkSelection},
	{"exits", "@exit:<name> targets name an exit declared in exits:", nil},
	{"phases", "phases: and phase_templates: structure", checkPhases},
	{"meta-mode", "meta_modes: declarations", checkMetaModes},
	{"decider", "decider: block", checkDecider},
	{"routing", "routing: block and intent synonyms", checkRouting},
	{"interfaces", "host_interfaces and iface.<name>.<op> invokes", checkInterfaces},
	{"starlark", "host.starlark.run scripts exist inside the story with their sidecar", checkStarlark},
	{"internal", "an internal loader error (a bug: please report it)", nil},
}

// Rules returns every rule id with a one-line description (for SARIF
// output and docs).
func Rules() map[string]string {
	out := make(map[string]string, len(allRules))
	for _, r := range allRules {
		out[r.id] = r.desc
	}
	return out
}

// unfoldedRules check blocks upstream drops when it folds an imported
// child into its importer (decider:, routing:); their errors are only
// warnings in a child.
var unfoldedRules = map[string]bool{"decider": true, "routing": true}

func (l *loader) check(st *Story) {
	c := &checker{st: st, rep: l.rep, l: l}
	for _, r := range allRules {
		if r.run == nil {
			continue
		}
		mark := len(l.rep.ds)
		r.run(c)
		if st.child && unfoldedRules[r.id] {
			l.rep.demoteSince(mark, "ignored in an imported child: upstream does not fold its "+r.id+" block")
		}
	}
}

// effSite describes where an effect sits.
type effSite struct {
	State      *State // owning state (nil for phases/proposals)
	Intent     string // transition intent ("" for on_enter)
	Loc        string // e.g. `state "a" on_enter[0]`
	OnComplete bool   // inside an on_complete chain
	Inline     bool   // inside an inline effects: list
	Template   bool   // inside a phase template (placeholders unresolved)
	Parent     *Effect
}

// eachEffect visits every effect of the story with its site, recursing into
// on_complete and inline effects.
func (c *checker) eachEffect(fn func(e *Effect, site effSite)) {
	if c.sites == nil {
		c.sites = []effectAt{}
		c.walkEffects(func(e *Effect, site effSite) { c.sites = append(c.sites, effectAt{e, site}) })
	}
	for _, ea := range c.sites {
		fn(ea.e, ea.site)
	}
}

func (c *checker) walkEffects(fn func(e *Effect, site effSite)) {
	var visit func(list []*Effect, site effSite, prefix string, idx string)
	visit = func(list []*Effect, site effSite, prefix string, idx string) {
		for i, e := range list {
			s := site
			s.Loc = fmt.Sprintf("%s%s[%d]", prefix, idx, i)
			fn(e, s)
			if len(e.OnComplete) > 0 {
				cs := s
				cs.OnComplete = true
				cs.Parent = e
				visit(e.OnComplete, cs, s.Loc+" ", "on_complete")
			}
			if len(e.Effects) > 0 {
				is := s
				is.Inline = true
				is.Parent = e
				visit(e.Effects, is, s.Loc+" ", "effects")
			}
		}
	}
	visitStates := func(states []*State, tpl bool) {
		for _, s := range states {
			base := effSite{State: s, Template: tpl}
			visit(s.OnEnter, base, fmt.Sprintf("state %q ", s.Path), "on_enter")
			visit(s.OnExit, base, fmt.Sprintf("state %q ", s.Path), "on_exit")
			for _, in := range s.OnOrder {
				for a, t := range s.On[in] {
					ts := base
					ts.Intent = in
					visit(t.Effects, ts, fmt.Sprintf("state %q intent %q arc[%d] ", s.Path, in, a), "effect")
				}
			}
		}
	}
	visitStates(c.st.AllStates(), false)
	for _, n := range sortedKeys(c.st.PhaseTemplates) {
		visitStates(flatten(c.st.PhaseTemplates[n].States), true)
	}
	if c.st.Phases != nil {
		for _, id := range c.st.Phases.Order {
			visit(c.st.Phases.Graph[id].OnEnter, effSite{Template: true}, fmt.Sprintf("phases.graph[%q] ", id), "on_enter")
		}
	}
	for _, n := range sortedKeys(c.st.Proposals) {
		if ex := c.st.Proposals[n].Execute; ex != nil {
			visit(ex.OnComplete, effSite{OnComplete: true}, fmt.Sprintf("proposal %q execute ", n), "on_complete")
		}
	}
}

// eachTransition visits every transition of the real state tree.
func (c *checker) eachTransition(fn func(s *State, intent string, arm int, t *Transition)) {
	for _, s := range c.st.AllStates() {
		for _, in := range s.OnOrder {
			for a, t := range s.On[in] {
				fn(s, in, a, t)
			}
		}
	}
}

func flatten(states []*State) []*State {
	var out []*State
	var walk func([]*State)
	walk = func(l []*State) {
		for _, s := range l {
			out = append(out, s)
			walk(s.Children)
		}
	}
	walk(states)
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// keyPos returns the position of an effect key's value, or the effect's.
func (e *Effect) keyPos(key string) Pos {
	if p, ok := e.Keys[key]; ok {
		return p
	}
	return e.Pos
}

func (s *State) keyPos(key string) Pos {
	if p, ok := s.Keys[key]; ok {
		return p
	}
	return s.Pos
}
