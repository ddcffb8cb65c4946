package story

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/duration"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// The key vocabularies the format schema publishes; each reader's Fields
// table reports unknown keys against its list (TestSchemaKeysAreKnown).
var (
	topKeys = []string{
		"app", "world", "intents", "root", "states", "off_path", "hosts",
		"agent_plugins", "providers", "proposals", "include", "phase_templates",
		"phases", "checkpoint_intents", "meta_modes", "decider", "agents",
		"imports", "exits", "exports", "host_interfaces", "prompts", "routing",
	}
	appKeys      = []string{"id", "version", "title", "author", "license", "context", "context_path"}
	intentKeys   = []string{"title", "description", "examples", "priority", "hidden", "slots", "synonyms"}
	slotKeys     = []string{"type", "required", "default", "values", "description", "examples", "format_hint", "prompt", "validator", "format", "synonyms"}
	personaKeys  = []string{"system_prompt", "system_prompt_path", "model", "tools", "cwd", "effort", "provider", "inherit_claude_default", "bash_profile", "external_side_effect"}
	pluginKeys   = []string{"plugin", "command", "args", "endpoint", "tool", "env", "headers", "model", "grammar", "port", "server_bin", "json_schema", "api_key_env", "claude_bin", "sha256"}
	providerKeys = []string{"model", "effort", "env"}
	importKeys   = []string{"source", "version", "entry", "exits", "world_in", "hosts", "intents", "overrides", "host_bindings"}
	exitKeys     = []string{"description", "requires"}
)

// fileDef is what one YAML file contributes before merging.
type fileDef struct {
	st          *Story
	file        string
	dir         string
	present     map[string]Pos // top-level keys present
	pluginsNode *yaml.Node
	rootNode    *yaml.Node
}

func newStory() *Story {
	return &Story{
		Intents:           map[string]*Intent{},
		CheckpointIntents: map[string]*Intent{},
		Agents:            map[string]*Persona{},
		AgentPlugins:      map[string]*AgentPlugin{},
		Providers:         map[string]*Provider{},
		Imports:           map[string]*Import{},
		Exits:             map[string]*Exit{},
		HostInterfaces:    map[string]*HostInterface{},
		PhaseTemplates:    map[string]*PhaseTemplate{},
		MetaModes:         map[string]*MetaMode{},
		Proposals:         map[string]*Proposal{},
		byPath:            map[string]*State{},
	}
}

// parseDoc parses the top-level mapping of one file.
func (p *fileParser) parseDoc(doc *yaml.Node) *fileDef {
	fd := &fileDef{file: p.File, dir: p.dir}
	if p.include {
		// Read by mergeOne only: a table is made for a key written.
		fd.st = &Story{}
	} else {
		fd.st = newStory()
	}
	root := doc
	if root != nil && root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	fd.present = map[string]Pos{}
	if root != nil && root.Kind == yaml.DocumentNode {
		return fd // an empty document
	}
	if yamlnode.IsNull(root) {
		return fd
	}
	p.FieldsAt(root, yamlnode.Place{Where: "top level"}, yamlnode.Place{}, diag.Error, p.topFields(fd), func(key string, k, _ *yaml.Node) { fd.present[key] = p.Pos(k) })
	return fd
}

// topFields is the table of a file's top-level keys, read into fd.
func (p *fileParser) topFields(fd *fileDef) yamlnode.Fields {
	st := fd.st
	return yamlnode.Fields{
		{Key: "app", Read: func(k, v *yaml.Node) { p.parseApp(st, k, v) }},
		{Key: "world", Read: func(_, v *yaml.Node) {
			p.Mapping(v, "world", nil, func(name string, k, v *yaml.Node) {
				st.World = append(st.World, p.parseWorldVar(name, k, v))
			})
		}},
		{Key: "intents", Read: func(_, v *yaml.Node) { st.Intents, st.IntentOrder = p.parseIntents(v, "intents") }},
		{Key: "root", Pos: &st.RootPos, Read: func(_, v *yaml.Node) {
			fd.rootNode = v
			if d := yamlnode.Deref(v); d != nil && d.Kind == yaml.ScalarNode && !yamlnode.IsNull(d) {
				st.Root = d.Value
			}
		}},
		{Key: "states", Read: func(k, v *yaml.Node) { p.parseTopStates(st, k, v) }},
		{Key: "off_path", Read: func(k, v *yaml.Node) { st.OffPath = p.parseOffPath(k, v) }},
		{Key: "hosts", List: &st.Hosts, Pos: &st.HostsPos},
		{Key: "agent_plugins", Read: func(_, v *yaml.Node) {
			fd.pluginsNode = v
			if !yamlnode.IsNull(v) && yamlnode.Deref(v) != nil && yamlnode.Deref(v).Kind != yaml.MappingNode {
				p.Errf(p.Pos(v), RuleType, "agent_plugins: expected a mapping, got %s", yamlnode.KindName(v))
			}
		}},
		{Key: "providers", Read: func(_, v *yaml.Node) { namedBlock(p, &st.Providers, v, "providers", p.parseProviderShape) }},
		{Key: "proposals", Read: func(_, v *yaml.Node) { namedBlock(p, &st.Proposals, v, "proposals", p.parseProposal) }},
		{Key: "include", List: &st.Include, Read: func(_, v *yaml.Node) { st.IncludePos = p.ItemPos(v) }},
		{Key: "phase_templates", Read: func(_, v *yaml.Node) {
			namedBlock(p, &st.PhaseTemplates, v, "phase_templates", p.parsePhaseTemplate)
		}},
		{Key: "phases", Read: func(k, v *yaml.Node) { st.Phases = p.parsePhases(k, v) }},
		{Key: "checkpoint_intents", Read: func(_, v *yaml.Node) { st.CheckpointIntents, _ = p.parseIntents(v, "checkpoint_intents") }},
		{Key: "meta_modes", Read: func(_, v *yaml.Node) { namedBlock(p, &st.MetaModes, v, "meta_modes", p.parseMetaMode) }},
		{Key: "decider", Read: func(k, v *yaml.Node) { st.Decider = p.parseDecider(k, v) }},
		{Key: "agents", Read: func(_, v *yaml.Node) { namedBlock(p, &st.Agents, v, "agents", p.parsePersona) }},
		{Key: "imports", Read: func(_, v *yaml.Node) {
			namedBlock(p, &st.Imports, v, "imports", func(alias string, k, v *yaml.Node) *Import {
				st.ImportOrder = append(st.ImportOrder, alias)
				return p.parseImport(alias, k, v)
			})
		}},
		{Key: "exits", Read: func(_, v *yaml.Node) { namedBlock(p, &st.Exits, v, "exits", p.parseExit) }},
		{Key: "exports", Read: func(k, v *yaml.Node) {
			st.Exports = &Exports{Pos: p.Pos(k)}
			p.Fields(v, "exports", yamlnode.Fields{{Key: "intents", List: &st.Exports.Intents}})
		}},
		{Key: "host_interfaces", Read: func(_, v *yaml.Node) {
			namedBlock(p, &st.HostInterfaces, v, "host_interfaces", p.parseInterface)
			// An interface written ~ is not declared, as upstream reads it.
			maps.DeleteFunc(st.HostInterfaces, func(_ string, hi *HostInterface) bool { return hi == nil })
		}},
		{Key: "prompts", Read: func(k, v *yaml.Node) { st.Prompts = p.parsePrompts(k, v) }},
		{Key: "routing", Read: func(k, v *yaml.Node) { st.Routing = p.parseRouting(k, v) }},
	}
}

// parseTopStates parses the states: block, from the split when there is one.
func (p *fileParser) parseTopStates(st *Story, k, v *yaml.Node) {
	if p.split == nil {
		st.States = p.parseStates(v, nil, "states")
		return
	}
	if k.Line != p.split.statesLine || v == nil || v.Kind != yaml.ScalarNode || v.Tag != "!!null" {
		p.splitFailed = true
		return
	}
	st.States = p.parseSplitStates()
}

// namedBlock parses a mapping of named entries into *m (made when written).
func namedBlock[T any](p *fileParser, m *map[string]T, v *yaml.Node, where string, parse func(name string, k, v *yaml.Node) T) {
	if *m == nil {
		*m = map[string]T{}
	}
	p.Mapping(v, where, nil, func(name string, k, v *yaml.Node) {
		(*m)[name] = parse(name, k, v)
	})
}

// parseApp reads the app: block.
func (p *fileParser) parseApp(st *Story, k, v *yaml.Node) {
	a := &st.App
	a.Pos = p.Pos(k)
	p.Fields(v, "app", yamlnode.Fields{
		{Key: "id", Str: &a.ID},
		{Key: "version", Str: &a.Version},
		{Key: "title", Str: &a.Title},
		{Key: "author", Str: &a.Author},
		{Key: "license", Str: &a.License},
		{Key: "context", Str: &a.Context},
		{Key: "context_path", Str: &a.ContextPath},
	})
}

// parseOffPath reads the off_path: block.
func (p *fileParser) parseOffPath(k, v *yaml.Node) *OffPath {
	op := &OffPath{Pos: p.Pos(k)}
	p.Fields(v, "off_path", yamlnode.Fields{
		{Key: "trigger", Str: &op.Trigger},
		{Key: "banner", Str: &op.Banner},
		{Key: "return", Raw: &op.Return},
		{Key: "persona", Str: &op.Persona},
		{Key: "agent", Str: &op.Agent},
	})
	return op
}

// parseDecider reads the decider: block.
func (p *fileParser) parseDecider(k, v *yaml.Node) *Decider {
	if yamlnode.IsNull(yamlnode.Deref(v)) {
		return nil // decider: ~ declares no decider, as upstream reads it
	}
	d := &Decider{Pos: p.Pos(k)}
	p.Fields(v, "decider", yamlnode.Fields{
		{Key: "agent", Str: &d.Agent},
		{Key: "schema", Str: &d.Schema},
		{Key: "prompt", Str: &d.Prompt},
		{Key: "threshold", Float: &d.Threshold},
	})
	return d
}

// parseExit reads one exits.<name> entry.
func (p *fileParser) parseExit(name string, k, v *yaml.Node) *Exit {
	e := &Exit{Name: name, Pos: p.Pos(k)}
	p.Fields(v, "exits."+name, yamlnode.Fields{{Key: "description", Str: &e.Description}, {Key: "requires", List: &e.Requires}})
	return e
}

// parsePrompts reads the prompts: block.
func (p *fileParser) parsePrompts(k, v *yaml.Node) *PromptsConfig {
	pc := &PromptsConfig{Pos: p.Pos(k)}
	p.Fields(v, "prompts", yamlnode.Fields{
		{Key: "shared", List: &pc.Shared, Read: func(_, v *yaml.Node) { pc.SharedPos = p.ItemPos(v) }},
		{Key: "overlay", Str: &pc.Overlay, Pos: &pc.OverlayPos},
	})
	return pc
}

func (p *fileParser) parseWorldVar(name string, k, v *yaml.Node) *WorldVar {
	wv := &WorldVar{Name: name, Pos: p.Pos(k)}
	d := yamlnode.Deref(v)
	if d != nil && d.Kind == yaml.MappingNode {
		if yamlnode.Get(d, "type") != nil || yamlnode.Get(d, "default") != nil || yamlnode.Get(d, "values") != nil {
			// Schema form; extra keys are ignored upstream (non-strict).
			for i := 0; i+1 < len(d.Content); i += 2 {
				val := d.Content[i+1]
				switch d.Content[i].Value {
				case "type":
					wv.Type = p.Str(val, "world."+name+".type")
				case "default":
					wv.Default = p.Raw(val)
					wv.HasDefault, wv.DefaultUnsigned = true, unsignedLiteral(val)
				case "values":
					if vs, ok := p.Raw(val).([]any); ok {
						wv.Values = vs
					}
				}
			}
			return wv
		}
	}
	wv.Default = p.Raw(v)
	wv.HasDefault, wv.DefaultUnsigned = !yamlnode.IsNull(v), unsignedLiteral(v)
	return wv
}

// unsignedLiteral reports a plain untagged integer without a minus sign.
func unsignedLiteral(n *yaml.Node) bool {
	n = yamlnode.Deref(n)
	return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!int" && n.Style&yaml.TaggedStyle == 0 && !strings.HasPrefix(n.Value, "-")
}

func (p *fileParser) parseIntents(n *yaml.Node, where string) (map[string]*Intent, []string) {
	out := map[string]*Intent{}
	order := yamlnode.MappingList(p.Walker, n, where, func(name string, k, v *yaml.Node) string {
		out[name] = p.parseIntent(name, k, v, where+"."+yamlnode.KeyText(name))
		return name
	})
	return out, order
}

func (p *fileParser) parseIntent(name string, k, v *yaml.Node, where string) *Intent {
	in := &Intent{Name: name, Pos: p.Pos(k), Slots: map[string]*Slot{}}
	p.Fields(v, where, yamlnode.Fields{
		{Key: "title", Str: &in.Title},
		{Key: "description", Str: &in.Description},
		{Key: "examples", List: &in.Examples},
		{Key: "priority", Int: &in.Priority},
		{Key: "hidden", Bool: &in.Hidden},
		{Key: "slots", Read: func(_, v *yaml.Node) {
			p.Mapping(v, where+".slots", nil, func(sn string, sk, sv *yaml.Node) {
				in.Slots[sn] = p.parseSlot(sn, sk, sv, where+".slots."+sn)
				in.SlotOrder = append(in.SlotOrder, sn)
			})
		}},
		{Key: "synonyms", Read: func(_, v *yaml.Node) {
			w := where + ".synonyms"
			p.Seq(v, w, func(i int, it *yaml.Node) {
				s := p.StrAt(it, w, i)
				if strings.TrimSpace(s) == "" { // upstream trims before its check
					p.Errf(p.Pos(it), RuleIntent, "intent %q: synonyms[%d] is empty", name, i)
				}
				in.Synonyms = append(in.Synonyms, s)
			})
		}},
	})
	return in
}

func (p *fileParser) parseSlot(name string, k, v *yaml.Node, where string) *Slot {
	sl := &Slot{Name: name, Pos: p.Pos(k)}
	var synNode *yaml.Node
	p.Fields(v, where, yamlnode.Fields{
		{Key: "type", Str: &sl.Type},
		{Key: "required", Bool: &sl.Required},
		{Key: "default", Raw: &sl.Default},
		{Key: "values", Read: func(_, v *yaml.Node) {
			if vs, ok := p.Raw(v).([]any); ok {
				sl.Values = vs
			}
		}},
		{Key: "description", Str: &sl.Description},
		{Key: "examples", Read: func(_, v *yaml.Node) {
			if vs, ok := p.Raw(v).([]any); ok {
				sl.Examples = vs
			}
		}},
		{Key: "format_hint", Str: &sl.FormatHint},
		{Key: "prompt", Str: &sl.Prompt},
		{Key: "validator", Str: &sl.Validator},
		{Key: "format", Str: &sl.Format},
		{Key: "synonyms", Read: func(_, v *yaml.Node) {
			synNode = v
			sl.Synonyms = map[string][]string{}
			p.Mapping(v, where+".synonyms", nil, func(ek string, _, ev *yaml.Node) {
				sl.Synonyms[ek] = p.StrList(ev, where+".synonyms."+ek)
			})
		}},
	})
	if synNode == nil || yamlnode.IsNull(synNode) {
		return sl
	}
	if sl.Type != "enum" {
		p.Errf(p.Pos(synNode), RuleIntent, "%s slot %q: synonyms: is only valid on enum slots (got type %q)", where, name, sl.Type)
		return sl
	}
	p.Mapping(synNode, where+".synonyms", nil, func(ek string, kk, ev *yaml.Node) {
		if !slices.ContainsFunc(sl.Values, func(val any) bool { return fmt.Sprint(val) == ek }) {
			p.Errf(p.Pos(kk), RuleIntent, "%s slot %q: synonyms key %q is not in values: %v", where, name, ek, sl.Values)
		}
		for i, s := range sl.Synonyms[ek] {
			if strings.TrimSpace(s) == "" { // upstream trims before its check
				p.Errf(p.Pos(ev), RuleIntent, "%s slot %q: synonyms[%q][%d] is empty", where, name, ek, i)
			}
		}
	})
	return sl
}

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
		p.Errf(p.Pos(k), RuleProvider, "providers.%s: empty declaration", name)
		pr.declaredEmpty = true
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

func (p *fileParser) parseProposal(name string, k, v *yaml.Node) *Proposal {
	pr := &Proposal{Name: name, Pos: p.Pos(k)}
	where := "proposals." + name
	// Upstream decodes a proposal into typed structs (schema and views maps
	// of strings, draft and refine {prompt}, ...); anything else does not load.
	scalar := func(what string, v *yaml.Node) {
		if d := yamlnode.Deref(v); d != nil && d.Kind != yaml.ScalarNode {
			p.Errf(p.Pos(v), RuleType, "%s.%s: expected a string, got %s", where, what, yamlnode.Describe(d))
		}
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
					if d := yamlnode.Deref(v); d != nil && !yamlnode.IsNull(d) && (d.Kind != yaml.ScalarNode || d.Tag != "!!bool") {
						p.Errf(p.Pos(v), RuleType, "%s.policy.require_confirm: expected true or false, got %s", where, yamlnode.Describe(d))
					}
				}},
			})
		}},
	})
	return pr
}

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

func (p *fileParser) parseMetaMode(key string, k, v *yaml.Node) *MetaMode {
	mm := &MetaMode{Key: key, Pos: p.Pos(k)}
	where := "meta_modes." + key
	if yamlnode.IsNull(v) {
		p.Errf(p.Pos(k), RuleMetaMode, "meta_mode %q: empty definition", key)
		return mm
	}
	p.Fields(v, where, yamlnode.Fields{
		{Key: "trigger", Str: &mm.Trigger},
		{Key: "group", Str: &mm.Group},
		{Key: "default", Bool: &mm.Default},
		{Key: "label", Str: &mm.Label},
		{Key: "banner", Str: &mm.Banner},
		{Key: "agent", Str: &mm.Agent},
		{Key: "persist", Raw: &mm.Persist, Read: func(_, v *yaml.Node) { p.Boolean(v, where+".persist") }}, // a bool upstream
		{Key: "cwd", Str: &mm.Cwd},
		{Key: "tools", List: &mm.Tools},
		{Key: "return", Read: func(_, v *yaml.Node) {
			p.Fields(v, where+".return", yamlnode.Fields{{Key: "message", Str: &mm.ReturnMessage}, {Key: "intent", Str: &mm.ReturnIntent}})
		}},
	})
	return mm
}

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
			if d := yamlnode.Deref(v); d != nil && !yamlnode.IsNull(d) && (d.Kind != yaml.ScalarNode || d.Tag != "!!bool") {
				p.Errf(p.Pos(v), RuleRouting, "routing.%s: expected true or false, got %s", key, yamlnode.Describe(d))
				return
			}
			*dst = p.BoolPtr(v, "routing."+key)
		}}
	}
	integer := func(key string) yamlnode.Field {
		return yamlnode.Field{Key: key, Read: func(_, v *yaml.Node) {
			if d := yamlnode.Deref(v); d != nil && !yamlnode.IsNull(d) && (d.Kind != yaml.ScalarNode || d.Tag != "!!int" && d.Tag != "!!float") {
				p.Errf(p.Pos(v), RuleRouting, "routing.%s: expected a number, got %s", key, yamlnode.Describe(d))
			}
		}}
	}
	p.FieldsAt(v, at, at, diag.Error, yamlnode.Fields{
		boolean("enabled", &r.Enabled),
		{Key: "semantic_high_bar", Float: &r.SemanticHighBar},
		{Key: "semantic_mid_bar", Float: &r.SemanticMidBar},
		boolean("cache_enabled", &blankB),
		{Key: "cache_max_age", Read: func(_, v *yaml.Node) {
			if s := p.Str(v, "routing.cache_max_age"); s != "" && !IsTemplated(s) {
				if _, err := duration.Parse(s); err != nil {
					p.Errf(p.Pos(v), RuleRouting, "routing.cache_max_age: app.ParseDuration: %v", err)
				}
			}
		}},
		{Key: "stopwords_extra", Read: func(_, v *yaml.Node) {
			if d := yamlnode.Deref(v); d != nil && !yamlnode.IsNull(d) && d.Kind != yaml.SequenceNode {
				p.Errf(p.Pos(v), RuleRouting, "routing.stopwords_extra: expected a list of words, got %s", yamlnode.Describe(d))
				return
			}
			p.StrList(v, "routing.stopwords_extra")
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

// kvList decodes a mapping into ordered key/value pairs with raw values.
func (p *fileParser) kvList(n *yaml.Node, where string) []KV {
	return yamlnode.MappingList(p.Walker, n, where, func(key string, _, v *yaml.Node) KV {
		return KV{Key: key, Value: p.Raw(v), Pos: p.ValuePos(v)}
	})
}
