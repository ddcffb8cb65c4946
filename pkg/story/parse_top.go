package story

import (
	"fmt"
	"kitsoki/internal/duration"
	"strings"

	"go.yaml.in/yaml/v3"
	"kitsoki/internal/yamlnode"
)

// Key vocabularies (reference §3-§5). Unknown keys are reported against
// these lists with a "did you mean" suggestion.
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
	pluginKeys   = []string{"plugin", "command", "args", "endpoint", "tool", "env", "headers", "model", "grammar", "port", "server_bin", "json_schema", "api_key_env", "claude_bin"}
	providerKeys = []string{"model", "effort", "env"}
	metaModeKeys = []string{"trigger", "group", "default", "label", "banner", "agent", "persist", "cwd", "tools", "return"}
	deciderKeys  = []string{"agent", "schema", "prompt", "threshold"}
	routingKeys  = []string{
		"enabled", "semantic_high_bar", "semantic_mid_bar", "cache_enabled", "cache_max_age",
		"stopwords_extra", "cache_cap", "cache_trim_fraction", "revalidate_strikes",
		"confidence_decay", "extract_llm_on_no_match", "extract_llm_agent",
		"free_form_fallback", "embedding",
	}
	offPathKeys    = []string{"trigger", "banner", "return", "persona", "agent"}
	proposalKeys   = []string{"schema", "draft", "refine", "execute", "views", "policy"}
	executeKeys    = []string{"invoke", "with", "repeatable", "on_success", "background", "on_complete"}
	importKeys     = []string{"source", "version", "entry", "exits", "world_in", "hosts", "intents", "overrides", "host_bindings"}
	exitKeys       = []string{"description", "requires"}
	ifaceKeys      = []string{"description", "operations", "default"}
	promptsKeys    = []string{"shared", "overlay"}
	phaseTplKeys   = []string{"parameters", "states"}
	phaseParamKeys = []string{"type", "required", "default"}
	phasesKeys     = []string{"template", "graph"}
)

// fileDef is what one YAML file contributes before merging, plus the nodes
// later stages need.
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
	if d := yamlnode.Deref(root); d != nil && d.Kind == yaml.MappingNode {
		fd.present = make(map[string]Pos, len(d.Content)/2)
	} else {
		fd.present = map[string]Pos{}
	}
	if root != nil && root.Kind == yaml.DocumentNode {
		return fd // an empty document
	}
	if yamlnode.IsNull(root) {
		return fd
	}
	p.Mapping(root, "top level", topKeys, func(key string, k, v *yaml.Node) {
		fd.present[key] = p.Pos(k)
		p.parseTopKey(fd, key, k, v)
	})
	return fd
}

// parseTopKey parses the value v of the top-level key (at k) into fd.
func (p *fileParser) parseTopKey(fd *fileDef, key string, k, v *yaml.Node) {
	st := fd.st
	switch key {
	case "app":
		p.parseApp(st, k, v)
	case "root":
		fd.rootNode = v
		st.RootPos = p.Pos(v)
		if d := yamlnode.Deref(v); d != nil && d.Kind == yaml.ScalarNode && !yamlnode.IsNull(d) {
			st.Root = d.Value
		}
	case "world":
		p.Mapping(v, "world", nil, func(name string, k, v *yaml.Node) {
			st.World = append(st.World, p.parseWorldVar(name, k, v))
		})
	case "intents":
		st.Intents, st.IntentOrder = p.parseIntents(v, "intents")
	case "checkpoint_intents":
		st.CheckpointIntents, _ = p.parseIntents(v, "checkpoint_intents")
	case "states":
		p.parseTopStates(st, k, v)
	case "hosts":
		st.HostsPos = p.Pos(v)
		st.Hosts = p.StrList(v, "hosts")
	case "include":
		st.Include = p.StrList(v, "include")
		st.IncludePos = p.ItemPos(v)
	case "agents":
		namedBlock(p, &st.Agents, v, "agents", p.parsePersona)
	case "agent_plugins":
		fd.pluginsNode = v
		if !yamlnode.IsNull(v) && yamlnode.Deref(v) != nil && yamlnode.Deref(v).Kind != yaml.MappingNode {
			p.errf(p.Pos(v), RuleType, "agent_plugins: expected a mapping, got %s", yamlnode.KindName(v))
		}
	case "providers":
		namedBlock(p, &st.Providers, v, "providers", p.parseProviderShape)
	case "off_path":
		st.OffPath = p.parseOffPath(k, v)
	case "proposals":
		namedBlock(p, &st.Proposals, v, "proposals", p.parseProposal)
	case "phase_templates":
		namedBlock(p, &st.PhaseTemplates, v, "phase_templates", p.parsePhaseTemplate)
	case "phases":
		st.Phases = p.parsePhases(k, v)
	case "meta_modes":
		namedBlock(p, &st.MetaModes, v, "meta_modes", p.parseMetaMode)
	case "decider":
		st.Decider = p.parseDecider(k, v)
	case "routing":
		st.Routing = p.parseRouting(k, v)
	case "imports":
		namedBlock(p, &st.Imports, v, "imports", func(alias string, k, v *yaml.Node) *Import {
			st.ImportOrder = append(st.ImportOrder, alias)
			return p.parseImport(alias, k, v)
		})
	case "exits":
		namedBlock(p, &st.Exits, v, "exits", p.parseExit)
	case "exports":
		st.Exports = &Exports{Pos: p.Pos(k)}
		p.Mapping(v, "exports", []string{"intents"}, func(_ string, _, v *yaml.Node) {
			st.Exports.Intents = p.StrList(v, "exports.intents")
		})
	case "host_interfaces":
		namedBlock(p, &st.HostInterfaces, v, "host_interfaces", p.parseInterface)
	case "prompts":
		st.Prompts = p.parsePrompts(k, v)
	}
}

// parseTopStates parses the top-level states: block (at k), from the
// file's split chunks when the file was split (yamlsplit.go).
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

// namedBlock parses a mapping of named entries (agents:, providers:,
// imports:, ...) into *m, made when the key is written even if empty.
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
	st.App.Pos = p.Pos(k)
	p.Mapping(v, "app", appKeys, func(key string, _, v *yaml.Node) {
		s := p.Str(v, "app."+key)
		switch key {
		case "id":
			st.App.ID = s
		case "version":
			st.App.Version = s
		case "title":
			st.App.Title = s
		case "author":
			st.App.Author = s
		case "license":
			st.App.License = s
		case "context":
			st.App.Context = s
		case "context_path":
			st.App.ContextPath = s
		}
	})
}

// parseOffPath reads the off_path: block.
func (p *fileParser) parseOffPath(k, v *yaml.Node) *OffPath {
	op := &OffPath{Pos: p.Pos(k)}
	p.Mapping(v, "off_path", offPathKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "trigger":
			op.Trigger = p.Str(v, "off_path.trigger")
		case "banner":
			op.Banner = p.Str(v, "off_path.banner")
		case "return":
			op.Return = p.Raw(v)
		case "persona":
			op.Persona = p.Str(v, "off_path.persona")
		case "agent":
			op.Agent = p.Str(v, "off_path.agent")
		}
	})
	return op
}

// parseDecider reads the decider: block.
func (p *fileParser) parseDecider(k, v *yaml.Node) *Decider {
	d := &Decider{Pos: p.Pos(k)}
	p.Mapping(v, "decider", deciderKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "agent":
			d.Agent = p.Str(v, "decider.agent")
		case "schema":
			d.Schema = p.Str(v, "decider.schema")
		case "prompt":
			d.Prompt = p.Str(v, "decider.prompt")
		case "threshold":
			d.Threshold = p.Float(v, "decider.threshold")
		}
	})
	return d
}

// parseExit reads one exits.<name> entry.
func (p *fileParser) parseExit(name string, k, v *yaml.Node) *Exit {
	e := &Exit{Name: name, Pos: p.Pos(k)}
	p.Mapping(v, "exits."+name, exitKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "description":
			e.Description = p.Str(v, "exits."+name+".description")
		case "requires":
			e.Requires = p.StrList(v, "exits."+name+".requires")
		}
	})
	return e
}

// parsePrompts reads the prompts: block.
func (p *fileParser) parsePrompts(k, v *yaml.Node) *PromptsConfig {
	pc := &PromptsConfig{Pos: p.Pos(k)}
	p.Mapping(v, "prompts", promptsKeys, func(key string, _, v *yaml.Node) {
		if key == "shared" {
			pc.Shared = p.StrList(v, "prompts.shared")
			pc.SharedPos = p.ItemPos(v)
		} else {
			pc.Overlay = p.Str(v, "prompts.overlay")
			pc.OverlayPos = p.Pos(v)
		}
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
					wv.HasDefault = true
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
	wv.HasDefault = !yamlnode.IsNull(v)
	return wv
}

func (p *fileParser) parseIntents(n *yaml.Node, where string) (map[string]*Intent, []string) {
	var out map[string]*Intent
	var order []string
	if d := yamlnode.Deref(n); d != nil && d.Kind == yaml.MappingNode && len(d.Content) >= 2 {
		out = make(map[string]*Intent, len(d.Content)/2)
		order = make([]string, 0, len(d.Content)/2)
	} else {
		out = map[string]*Intent{}
	}
	p.Mapping(n, where, nil, func(name string, k, v *yaml.Node) {
		out[name] = p.parseIntent(name, k, v, where+"."+name)
		order = append(order, name)
	})
	if len(order) == 0 {
		order = nil
	}
	return out, order
}

func (p *fileParser) parseIntent(name string, k, v *yaml.Node, where string) *Intent {
	in := &Intent{Name: name, Pos: p.Pos(k), Slots: map[string]*Slot{}}
	p.Mapping(v, where, intentKeys, func(key string, kk, v *yaml.Node) {
		switch key {
		case "title":
			in.Title = p.StrIn(v, where, key)
		case "description":
			in.Description = p.StrIn(v, where, key)
		case "examples":
			in.Examples = p.StrList(v, where+"."+key)
		case "priority":
			in.Priority = p.Integer(v, where+"."+key)
		case "hidden":
			in.Hidden = p.BoolIn(v, where, key)
		case "synonyms":
			w := where + "." + key
			p.Seq(v, w, func(i int, it *yaml.Node) {
				s := p.StrAt(it, w, i)
				if s == "" {
					p.errf(p.Pos(it), RuleIntent, "intent %q: synonyms[%d] is empty", name, i)
				}
				in.Synonyms = append(in.Synonyms, s)
			})
		case "slots":
			w := where + "." + key
			p.Mapping(v, w, nil, func(sn string, sk, sv *yaml.Node) {
				in.Slots[sn] = p.parseSlot(sn, sk, sv, w+"."+sn)
				in.SlotOrder = append(in.SlotOrder, sn)
			})
		}
	})
	return in
}

func (p *fileParser) parseSlot(name string, k, v *yaml.Node, where string) *Slot {
	sl := &Slot{Name: name, Pos: p.Pos(k)}
	var synNode *yaml.Node
	p.Mapping(v, where, slotKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "type":
			sl.Type = p.StrIn(v, where, key)
		case "required":
			sl.Required = p.BoolIn(v, where, key)
		case "default":
			sl.Default = p.Raw(v)
		case "values":
			if vs, ok := p.Raw(v).([]any); ok {
				sl.Values = vs
			}
		case "description":
			sl.Description = p.StrIn(v, where, key)
		case "examples":
			if vs, ok := p.Raw(v).([]any); ok {
				sl.Examples = vs
			}
		case "format_hint":
			sl.FormatHint = p.StrIn(v, where, key)
		case "prompt":
			sl.Prompt = p.StrIn(v, where, key)
		case "validator":
			sl.Validator = p.StrIn(v, where, key)
		case "format":
			sl.Format = p.StrIn(v, where, key)
		case "synonyms":
			w := where + "." + key
			synNode = v
			sl.Synonyms = map[string][]string{}
			p.Mapping(v, w, nil, func(ek string, _, ev *yaml.Node) {
				sl.Synonyms[ek] = p.StrList(ev, w+"."+ek)
			})
		}
	})
	if synNode != nil && !yamlnode.IsNull(synNode) {
		if sl.Type != "enum" {
			p.errf(p.Pos(synNode), RuleIntent, "%s slot %q: synonyms: is only valid on enum slots (got type %q)", where, name, sl.Type)
		} else {
			p.Mapping(synNode, where+".synonyms", nil, func(ek string, kk, ev *yaml.Node) {
				found := false
				for _, val := range sl.Values {
					if fmt.Sprint(val) == ek {
						found = true
					}
				}
				if !found {
					p.errf(p.Pos(kk), RuleIntent, "%s slot %q: synonyms key %q is not in values: %v", where, name, ek, sl.Values)
				}
				for i, s := range sl.Synonyms[ek] {
					if s == "" {
						p.errf(p.Pos(ev), RuleIntent, "%s slot %q: synonyms[%q][%d] is empty", where, name, ek, i)
					}
				}
			})
		}
	}
	return sl
}

func (p *fileParser) parsePersona(name string, k, v *yaml.Node) *Persona {
	pe := &Persona{Name: name, Pos: p.Pos(k), Dir: p.dir}
	if yamlnode.IsNull(v) {
		p.errf(p.Pos(k), RulePersona, "agent %q: empty definition", name)
		return pe
	}
	where := "agents." + name
	p.Mapping(v, where, personaKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "system_prompt":
			pe.SystemPrompt = p.StrIn(v, where, key)
		case "system_prompt_path":
			pe.SystemPromptPath = p.StrIn(v, where, key)
		case "model":
			pe.Model = p.StrIn(v, where, key)
		case "tools":
			pe.Tools = p.StrList(v, where+"."+key)
		case "cwd":
			pe.Cwd = p.StrIn(v, where, key)
		case "effort":
			pe.Effort = p.StrIn(v, where, key)
		case "provider":
			pe.Provider = p.StrIn(v, where, key)
		case "inherit_claude_default":
			pe.InheritClaudeDefault = p.BoolPtr(v, where+"."+key)
		case "external_side_effect":
			pe.ExternalSideEffect = p.BoolPtr(v, where+"."+key)
		case "bash_profile":
			pe.BashProfile = p.parseBashProfile(v, where+"."+key)
		}
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
		p.errf(p.Pos(v), RulePersona, `%s: unrecognised form %q; expected "read-only", {commands:[...]}, or {sandboxed_write:<dir>}`, where, d.Value)
		return bp
	}
	n := 0
	p.Mapping(v, where, []string{"commands", "sandboxed_write"}, func(key string, _, v *yaml.Node) {
		n++
		if key == "commands" {
			bp.Commands = p.StrList(v, where+".commands")
		} else {
			bp.SandboxedWrite = p.Str(v, where+".sandboxed_write")
		}
	})
	if n != 1 {
		p.errf(p.Pos(v), RulePersona, `%s: unrecognised form; expected "read-only", {commands:[...]}, or {sandboxed_write:<dir>}`, where)
	}
	return bp
}

func (p *fileParser) parseProviderShape(name string, k, v *yaml.Node) *Provider {
	pr := &Provider{Name: name, Pos: p.Pos(k), Env: map[string]string{}}
	where := "providers." + name
	if yamlnode.IsNull(v) {
		p.errf(p.Pos(k), RuleProvider, "providers.%s: empty declaration", name)
		pr.declaredEmpty = true
		return pr
	}
	p.Mapping(v, where, providerKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "model":
			pr.Model = p.Str(v, where+".model")
		case "effort":
			pr.Effort = p.Str(v, where+".effort")
		case "env":
			pr.Env = p.StrMap(v, where+".env")
		}
	})
	return pr
}

func (p *fileParser) parseProposal(name string, k, v *yaml.Node) *Proposal {
	pr := &Proposal{Name: name, Pos: p.Pos(k)}
	where := "proposals." + name
	// Proposal sub-blocks are barely validated upstream: unknown keys warn.
	p.Mapping(v, where, proposalKeys, func(key string, kk, v *yaml.Node) {
		switch key {
		case "schema":
			pr.Schema = p.Raw(v)
		case "draft":
			pr.Draft = p.Raw(v)
		case "refine":
			pr.Refine = p.Raw(v)
		case "views":
			pr.Views = p.Raw(v)
		case "policy":
			pr.Policy = p.Raw(v)
		case "execute":
			ex := &ProposalExecute{Pos: p.Pos(kk)}
			pr.Execute = ex
			p.Mapping(v, where+".execute", executeKeys, func(key string, _, v *yaml.Node) {
				w := where + ".execute." + key
				switch key {
				case "invoke":
					ex.Invoke = p.Str(v, w)
				case "with":
					ex.With, _ = p.Raw(v).(map[string]any)
				case "repeatable":
					ex.Repeatable = p.Boolean(v, w)
				case "on_success":
					ex.OnSuccess = p.Raw(v)
				case "background":
					ex.Background = p.Boolean(v, w)
				case "on_complete":
					ex.OnComplete = p.parseEffects(v, w)
				}
			})
		}
	})
	return pr
}

func (p *fileParser) parsePhaseTemplate(name string, k, v *yaml.Node) *PhaseTemplate {
	pt := &PhaseTemplate{Name: name, Pos: p.Pos(k), Parameters: map[string]*PhaseParam{}}
	where := "phase_templates." + name
	p.Mapping(v, where, phaseTplKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "parameters":
			p.Mapping(v, where+".parameters", nil, func(pn string, pk, pv *yaml.Node) {
				pp := &PhaseParam{Pos: p.Pos(pk)}
				w := where + ".parameters." + pn
				// A parameter's extra keys (a description, say) only warn.
				p.MappingIn(pv, yamlnode.Place{Where: w}, phaseParamKeys, "warning", func(key string, _, v *yaml.Node) {
					switch key {
					case "type":
						pp.Type = p.Str(v, w+".type")
					case "required":
						pp.Required = p.Boolean(v, w+".required")
					case "default":
						pp.Default = p.Raw(v)
					}
				})
				pt.Parameters[pn] = pp
			})
		case "states":
			pt.States = p.parseStates(v, nil, where+".states")
		}
	})
	return pt
}

func (p *fileParser) parsePhases(k, v *yaml.Node) *Phases {
	ph := &Phases{Pos: p.Pos(k), Graph: map[string]*PhaseNode{}}
	p.Mapping(v, "phases", phasesKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "template":
			ph.Template = p.Str(v, "phases.template")
		case "graph":
			p.Mapping(v, "phases.graph", nil, func(id string, gk, gv *yaml.Node) {
				pn := &PhaseNode{ID: id, Pos: p.Pos(gk), Params: map[string]any{}}
				if yamlnode.IsNull(gv) {
					p.errf(p.Pos(gk), RulePhases, "phases.graph[%q]: empty entry", id)
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
		}
	})
	return ph
}

func (p *fileParser) parseMetaMode(key string, k, v *yaml.Node) *MetaMode {
	mm := &MetaMode{Key: key, Pos: p.Pos(k)}
	where := "meta_modes." + key
	if yamlnode.IsNull(v) {
		p.errf(p.Pos(k), RuleMetaMode, "meta_mode %q: empty definition", key)
		return mm
	}
	p.Mapping(v, where, metaModeKeys, func(f string, _, v *yaml.Node) {
		w := where + "." + f
		switch f {
		case "trigger":
			mm.Trigger = p.Str(v, w)
		case "group":
			mm.Group = p.Str(v, w)
		case "default":
			mm.Default = p.Boolean(v, w)
		case "label":
			mm.Label = p.Str(v, w)
		case "banner":
			mm.Banner = p.Str(v, w)
		case "agent":
			mm.Agent = p.Str(v, w)
		case "persist":
			mm.Persist = p.Raw(v)
		case "cwd":
			mm.Cwd = p.Str(v, w)
		case "tools":
			mm.Tools = p.StrList(v, w)
		case "return":
			p.Mapping(v, w, []string{"message", "intent"}, func(rk string, _, rv *yaml.Node) {
				if rk == "message" {
					mm.ReturnMessage = p.Str(rv, w+".message")
				} else {
					mm.ReturnIntent = p.Str(rv, w+".intent")
				}
			})
		}
	})
	return mm
}

func (p *fileParser) parseRouting(k, v *yaml.Node) *Routing {
	r := &Routing{Pos: p.Pos(k), Raw: map[string]any{}}
	p.Mapping(v, "routing", routingKeys, func(key string, _, v *yaml.Node) {
		w := "routing." + key
		r.Raw[key] = p.Raw(v)
		switch key {
		case "enabled":
			r.Enabled = p.BoolPtr(v, w)
		case "semantic_high_bar":
			r.SemanticHighBar = p.Float(v, w)
		case "semantic_mid_bar":
			r.SemanticMidBar = p.Float(v, w)
		case "extract_llm_on_no_match":
			r.ExtractLLMOnNoMatch = p.BoolPtr(v, w)
		case "extract_llm_agent":
			r.ExtractLLMAgent = p.Str(v, w)
		case "cache_enabled":
			p.BoolPtr(v, w)
		case "cache_max_age":
			if s := p.Str(v, w); s != "" && !IsTemplated(s) {
				if _, err := duration.Parse(s); err != nil {
					p.errf(p.Pos(v), RuleRouting, "routing.cache_max_age: app.ParseDuration: %v", err)
				}
			}
		case "stopwords_extra":
			p.StrList(v, w)
		case "cache_cap", "revalidate_strikes":
			p.Integer(v, w)
		case "cache_trim_fraction", "confidence_decay":
			p.Float(v, w)
		case "free_form_fallback":
			p.Mapping(v, w, []string{"state", "intent"}, func(fk string, _, fv *yaml.Node) {
				if fk == "state" {
					r.FreeFormFallbackState = p.Str(fv, w+".state")
				} else {
					r.FreeFormFallbackIntent = p.Str(fv, w+".intent")
				}
			})
		case "embedding":
			p.Mapping(v, w, []string{"endpoint", "model", "cache_dir", "confident_bar", "margin"}, func(string, *yaml.Node, *yaml.Node) {})
		}
	})
	return r
}

// recordItems records in keys the position of each item below v: a
// mapping's values as "<prefix>.<key>", a list's string items as
// "<prefix>.<item>", two levels deep.
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
		p.errf(p.Pos(k), RuleImports, "imports.%s: empty definition", alias)
		return im
	}
	p.Mapping(v, where, importKeys, func(key string, kk, v *yaml.Node) {
		w := where + "." + key
		im.Keys[key] = p.Pos(v)
		p.recordItems(im.Keys, key, v)
		switch key {
		case "source":
			im.Source = p.Str(v, w)
		case "version":
			im.Version = p.Str(v, w)
		case "entry":
			im.Entry = p.Str(v, w)
		case "hosts":
			im.Hosts = p.Str(v, w)
		case "world_in":
			im.WorldIn = p.kvList(v, w)
		case "exits":
			p.Mapping(v, w, nil, func(en string, ek, ev *yaml.Node) {
				ie := &ImportExit{Pos: p.Pos(ek)}
				p.Mapping(ev, w+"."+en, []string{"to", "set"}, func(f string, _, fv *yaml.Node) {
					if f == "to" {
						ie.To = p.Str(fv, w+"."+en+".to")
						ie.ToPos = p.Pos(fv)
					} else {
						ie.Set = p.kvList(fv, w+"."+en+".set")
					}
				})
				im.Exits[en] = ie
			})
		case "intents":
			p.Mapping(v, w, []string{"export", "import"}, func(f string, _, fv *yaml.Node) {
				var names []string
				if d := yamlnode.Deref(fv); d != nil && d.Kind == yaml.MappingNode {
					names = yamlnode.Keys(d)
				} else {
					names = p.StrList(fv, w+"."+f)
				}
				if f == "export" {
					im.ExportIntent = names
				} else {
					im.ImportIntent = names
				}
			})
		case "overrides":
			ov := &ImportOverrides{Pos: p.Pos(kk), file: p.File, dir: p.dir}
			p.Mapping(v, w, []string{"states", "intents", "prompts"}, func(f string, _, fv *yaml.Node) {
				switch f {
				case "states":
					ov.States = p.overrideNodes(fv)
				case "intents":
					ov.Intents = p.overrideNodes(fv)
				case "prompts":
					ov.Prompts = p.StrMap(fv, w+".prompts")
				}
			})
			im.Overrides = ov
		case "host_bindings":
			im.HostBindings = p.StrMap(v, w)
		}
	})
	return im
}

func (p *fileParser) parseInterface(name string, k, v *yaml.Node) *HostInterface {
	hi := &HostInterface{Name: name, Pos: p.Pos(k), Operations: map[string]*Operation{}}
	where := "host_interfaces." + name
	p.Mapping(v, where, ifaceKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "description":
			hi.Description = p.Str(v, where+".description")
		case "default":
			hi.Default = p.Str(v, where+".default")
		case "operations":
			p.Mapping(v, where+".operations", nil, func(op string, ok, ov *yaml.Node) {
				o := &Operation{Pos: p.Pos(ok)}
				// Operations are metadata only upstream: an unknown key warns.
				p.MappingIn(ov, yamlnode.Place{Where: where + ".operations." + op}, []string{"input", "output"}, "warning", func(f string, _, fv *yaml.Node) {
					if f == "input" {
						o.Input = p.Raw(fv)
					} else {
						o.Output = p.Raw(fv)
					}
				})
				hi.Operations[op] = o
			})
		}
	})
	return hi
}

// kvList decodes a mapping into ordered key/value pairs with raw values.
func (p *fileParser) kvList(n *yaml.Node, where string) []KV {
	var out []KV
	if d := yamlnode.Deref(n); d != nil && d.Kind == yaml.MappingNode && len(d.Content) >= 2 {
		out = make([]KV, 0, len(d.Content)/2)
	}
	p.Mapping(n, where, nil, func(key string, _, v *yaml.Node) {
		out = append(out, KV{Key: key, Value: p.Raw(v), Pos: p.ValuePos(v)})
	})
	if len(out) == 0 {
		return nil
	}
	return out
}
