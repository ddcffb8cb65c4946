package story

import (
	"fmt"
	"kitsoki/internal/duration"
	"strings"

	"go.yaml.in/yaml/v3"
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
	fd := &fileDef{file: p.file, dir: p.dir}
	if p.include {
		// Read by mergeOne only: a table is made for a key written.
		fd.st = &Story{}
	} else {
		fd.st = newStory()
	}
	st := fd.st
	root := doc
	if root != nil && root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if d := deref(root); d != nil && d.Kind == yaml.MappingNode {
		fd.present = make(map[string]Pos, len(d.Content)/2)
	} else {
		fd.present = map[string]Pos{}
	}
	if root != nil && root.Kind == yaml.DocumentNode {
		return fd // an empty document
	}
	if isNull(root) {
		return fd
	}
	p.mapping(root, "top level", topKeys, func(key string, k, v *yaml.Node) {
		fd.present[key] = p.pos(k)
		switch key {
		case "app":
			p.parseApp(st, k, v)
		case "root":
			fd.rootNode = v
			st.RootPos = p.pos(v)
			if d := deref(v); d != nil && d.Kind == yaml.ScalarNode && !isNull(d) {
				st.Root = d.Value
			}
		case "world":
			p.mapping(v, "world", nil, func(name string, k, v *yaml.Node) {
				st.World = append(st.World, p.parseWorldVar(name, k, v))
			})
		case "intents":
			st.Intents, st.IntentOrder = p.parseIntents(v, "intents")
		case "checkpoint_intents":
			st.CheckpointIntents, _ = p.parseIntents(v, "checkpoint_intents")
		case "states":
			if p.split != nil {
				if k.Line != p.split.statesLine || v == nil || v.Kind != yaml.ScalarNode || v.Tag != "!!null" {
					p.splitFailed = true
					return
				}
				st.States = p.parseSplitStates()
				return
			}
			st.States = p.parseStates(v, nil, "states")
		case "hosts":
			st.HostsPos = p.pos(v)
			st.Hosts = p.strList(v, "hosts")
		case "include":
			st.Include = p.strList(v, "include")
			st.IncludePos = p.itemPos(v)
		case "agents":
			if st.Agents == nil {
				st.Agents = map[string]*Persona{}
			}
			p.mapping(v, "agents", nil, func(name string, k, v *yaml.Node) {
				st.Agents[name] = p.parsePersona(name, k, v)
			})
		case "agent_plugins":
			fd.pluginsNode = v
			if !isNull(v) && deref(v) != nil && deref(v).Kind != yaml.MappingNode {
				p.errf(p.pos(v), ruleType, "agent_plugins: expected a mapping, got %s", kindName(v))
			}
		case "providers":
			if st.Providers == nil {
				st.Providers = map[string]*Provider{}
			}
			p.mapping(v, "providers", nil, func(name string, k, v *yaml.Node) {
				st.Providers[name] = p.parseProviderShape(name, k, v)
			})
		case "off_path":
			st.OffPath = p.parseOffPath(k, v)
		case "proposals":
			if st.Proposals == nil {
				st.Proposals = map[string]*Proposal{}
			}
			p.mapping(v, "proposals", nil, func(name string, k, v *yaml.Node) {
				st.Proposals[name] = p.parseProposal(name, k, v)
			})
		case "phase_templates":
			if st.PhaseTemplates == nil {
				st.PhaseTemplates = map[string]*PhaseTemplate{}
			}
			p.mapping(v, "phase_templates", nil, func(name string, k, v *yaml.Node) {
				st.PhaseTemplates[name] = p.parsePhaseTemplate(name, k, v)
			})
		case "phases":
			st.Phases = p.parsePhases(k, v)
		case "meta_modes":
			if st.MetaModes == nil {
				st.MetaModes = map[string]*MetaMode{}
			}
			p.mapping(v, "meta_modes", nil, func(name string, k, v *yaml.Node) {
				st.MetaModes[name] = p.parseMetaMode(name, k, v)
			})
		case "decider":
			st.Decider = p.parseDecider(k, v)
		case "routing":
			st.Routing = p.parseRouting(k, v)
		case "imports":
			if st.Imports == nil {
				st.Imports = map[string]*Import{}
			}
			p.mapping(v, "imports", nil, func(alias string, k, v *yaml.Node) {
				st.Imports[alias] = p.parseImport(alias, k, v)
				st.ImportOrder = append(st.ImportOrder, alias)
			})
		case "exits":
			if st.Exits == nil {
				st.Exits = map[string]*Exit{}
			}
			p.mapping(v, "exits", nil, func(name string, k, v *yaml.Node) {
				st.Exits[name] = p.parseExit(name, k, v)
			})
		case "exports":
			st.Exports = &Exports{Pos: p.pos(k)}
			p.mapping(v, "exports", []string{"intents"}, func(_ string, _, v *yaml.Node) {
				st.Exports.Intents = p.strList(v, "exports.intents")
			})
		case "host_interfaces":
			if st.HostInterfaces == nil {
				st.HostInterfaces = map[string]*HostInterface{}
			}
			p.mapping(v, "host_interfaces", nil, func(name string, k, v *yaml.Node) {
				st.HostInterfaces[name] = p.parseInterface(name, k, v)
			})
		case "prompts":
			st.Prompts = p.parsePrompts(k, v)
		}
	})
	return fd
}

// parseApp reads the app: block.
func (p *fileParser) parseApp(st *Story, k, v *yaml.Node) {
	st.App.Pos = p.pos(k)
	p.mapping(v, "app", appKeys, func(key string, _, v *yaml.Node) {
		s := p.str(v, "app."+key)
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
	op := &OffPath{Pos: p.pos(k)}
	p.mapping(v, "off_path", offPathKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "trigger":
			op.Trigger = p.str(v, "off_path.trigger")
		case "banner":
			op.Banner = p.str(v, "off_path.banner")
		case "return":
			op.Return = p.raw(v)
		case "persona":
			op.Persona = p.str(v, "off_path.persona")
		case "agent":
			op.Agent = p.str(v, "off_path.agent")
		}
	})
	return op
}

// parseDecider reads the decider: block.
func (p *fileParser) parseDecider(k, v *yaml.Node) *Decider {
	d := &Decider{Pos: p.pos(k)}
	p.mapping(v, "decider", deciderKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "agent":
			d.Agent = p.str(v, "decider.agent")
		case "schema":
			d.Schema = p.str(v, "decider.schema")
		case "prompt":
			d.Prompt = p.str(v, "decider.prompt")
		case "threshold":
			d.Threshold = p.float(v, "decider.threshold")
		}
	})
	return d
}

// parseExit reads one exits.<name> entry.
func (p *fileParser) parseExit(name string, k, v *yaml.Node) *Exit {
	e := &Exit{Name: name, Pos: p.pos(k)}
	p.mapping(v, "exits."+name, exitKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "description":
			e.Description = p.str(v, "exits."+name+".description")
		case "requires":
			e.Requires = p.strList(v, "exits."+name+".requires")
		}
	})
	return e
}

// parsePrompts reads the prompts: block.
func (p *fileParser) parsePrompts(k, v *yaml.Node) *PromptsConfig {
	pc := &PromptsConfig{Pos: p.pos(k)}
	p.mapping(v, "prompts", promptsKeys, func(key string, _, v *yaml.Node) {
		if key == "shared" {
			pc.Shared = p.strList(v, "prompts.shared")
			pc.SharedPos = p.itemPos(v)
		} else {
			pc.Overlay = p.str(v, "prompts.overlay")
			pc.OverlayPos = p.pos(v)
		}
	})
	return pc
}

func (p *fileParser) parseWorldVar(name string, k, v *yaml.Node) *WorldVar {
	wv := &WorldVar{Name: name, Pos: p.pos(k)}
	d := deref(v)
	if d != nil && d.Kind == yaml.MappingNode {
		if hasKey(d, "type") || hasKey(d, "default") || hasKey(d, "values") {
			// Schema form; extra keys are ignored upstream (non-strict).
			for i := 0; i+1 < len(d.Content); i += 2 {
				val := d.Content[i+1]
				switch d.Content[i].Value {
				case "type":
					wv.Type = p.str(val, "world."+name+".type")
				case "default":
					wv.Default = p.raw(val)
					wv.HasDefault = true
				case "values":
					if vs, ok := p.raw(val).([]any); ok {
						wv.Values = vs
					}
				}
			}
			return wv
		}
	}
	wv.Default = p.raw(v)
	wv.HasDefault = !isNull(v)
	return wv
}

func (p *fileParser) parseIntents(n *yaml.Node, where string) (map[string]*Intent, []string) {
	var out map[string]*Intent
	var order []string
	if d := deref(n); d != nil && d.Kind == yaml.MappingNode && len(d.Content) >= 2 {
		out = make(map[string]*Intent, len(d.Content)/2)
		order = make([]string, 0, len(d.Content)/2)
	} else {
		out = map[string]*Intent{}
	}
	p.mapping(n, where, nil, func(name string, k, v *yaml.Node) {
		out[name] = p.parseIntent(name, k, v, where+"."+name)
		order = append(order, name)
	})
	if len(order) == 0 {
		order = nil
	}
	return out, order
}

func (p *fileParser) parseIntent(name string, k, v *yaml.Node, where string) *Intent {
	in := &Intent{Name: name, Pos: p.pos(k), Slots: map[string]*Slot{}}
	p.mapping(v, where, intentKeys, func(key string, kk, v *yaml.Node) {
		switch key {
		case "title":
			in.Title = p.strIn(v, where, key)
		case "description":
			in.Description = p.strIn(v, where, key)
		case "examples":
			w := where + "." + key
			in.Examples = p.strList(v, w)
		case "priority":
			w := where + "." + key
			in.Priority = p.integer(v, w)
		case "hidden":
			in.Hidden = p.boolIn(v, where, key)
		case "synonyms":
			w := where + "." + key
			p.seq(v, w, func(i int, it *yaml.Node) {
				s := p.strAt(it, w, i)
				if s == "" {
					p.errf(p.pos(it), ruleIntent, "intent %q: synonyms[%d] is empty", name, i)
				}
				in.Synonyms = append(in.Synonyms, s)
			})
		case "slots":
			w := where + "." + key
			p.mapping(v, w, nil, func(sn string, sk, sv *yaml.Node) {
				in.Slots[sn] = p.parseSlot(sn, sk, sv, w+"."+sn)
				in.SlotOrder = append(in.SlotOrder, sn)
			})
		}
	})
	return in
}

func (p *fileParser) parseSlot(name string, k, v *yaml.Node, where string) *Slot {
	sl := &Slot{Name: name, Pos: p.pos(k)}
	var synNode *yaml.Node
	p.mapping(v, where, slotKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "type":
			sl.Type = p.strIn(v, where, key)
		case "required":
			sl.Required = p.boolIn(v, where, key)
		case "default":
			sl.Default = p.raw(v)
		case "values":
			if vs, ok := p.raw(v).([]any); ok {
				sl.Values = vs
			}
		case "description":
			sl.Description = p.strIn(v, where, key)
		case "examples":
			if vs, ok := p.raw(v).([]any); ok {
				sl.Examples = vs
			}
		case "format_hint":
			sl.FormatHint = p.strIn(v, where, key)
		case "prompt":
			sl.Prompt = p.strIn(v, where, key)
		case "validator":
			sl.Validator = p.strIn(v, where, key)
		case "format":
			sl.Format = p.strIn(v, where, key)
		case "synonyms":
			w := where + "." + key
			synNode = v
			sl.Synonyms = map[string][]string{}
			p.mapping(v, w, nil, func(ek string, _, ev *yaml.Node) {
				sl.Synonyms[ek] = p.strList(ev, w+"."+ek)
			})
		}
	})
	if synNode != nil && !isNull(synNode) {
		if sl.Type != "enum" {
			p.errf(p.pos(synNode), ruleIntent, "%s slot %q: synonyms: is only valid on enum slots (got type %q)", where, name, sl.Type)
		} else {
			p.mapping(synNode, where+".synonyms", nil, func(ek string, kk, ev *yaml.Node) {
				found := false
				for _, val := range sl.Values {
					if fmt.Sprint(val) == ek {
						found = true
					}
				}
				if !found {
					p.errf(p.pos(kk), ruleIntent, "%s slot %q: synonyms key %q is not in values: %v", where, name, ek, sl.Values)
				}
				for i, s := range sl.Synonyms[ek] {
					if s == "" {
						p.errf(p.pos(ev), ruleIntent, "%s slot %q: synonyms[%q][%d] is empty", where, name, ek, i)
					}
				}
			})
		}
	}
	return sl
}

func (p *fileParser) parsePersona(name string, k, v *yaml.Node) *Persona {
	pe := &Persona{Name: name, Pos: p.pos(k), Dir: p.dir}
	if isNull(v) {
		p.errf(p.pos(k), rulePersona, "agent %q: empty definition", name)
		return pe
	}
	where := "agents." + name
	p.mapping(v, where, personaKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "system_prompt":
			pe.SystemPrompt = p.strIn(v, where, key)
		case "system_prompt_path":
			pe.SystemPromptPath = p.strIn(v, where, key)
		case "model":
			pe.Model = p.strIn(v, where, key)
		case "tools":
			w := where + "." + key
			pe.Tools = p.strList(v, w)
		case "cwd":
			pe.Cwd = p.strIn(v, where, key)
		case "effort":
			pe.Effort = p.strIn(v, where, key)
		case "provider":
			pe.Provider = p.strIn(v, where, key)
		case "inherit_claude_default":
			w := where + "." + key
			pe.InheritClaudeDefault = p.boolPtr(v, w)
		case "external_side_effect":
			w := where + "." + key
			pe.ExternalSideEffect = p.boolPtr(v, w)
		case "bash_profile":
			w := where + "." + key
			pe.BashProfile = p.parseBashProfile(v, w)
		}
	})
	return pe
}

func (p *fileParser) parseBashProfile(v *yaml.Node, where string) *BashProfile {
	bp := &BashProfile{Pos: p.pos(v)}
	d := deref(v)
	if isNull(d) {
		return nil
	}
	if d.Kind == yaml.ScalarNode {
		if d.Value == "read-only" {
			bp.ReadOnly = true
			return bp
		}
		p.errf(p.pos(v), rulePersona, `%s: unrecognised form %q; expected "read-only", {commands:[...]}, or {sandboxed_write:<dir>}`, where, d.Value)
		return bp
	}
	n := 0
	p.mapping(v, where, []string{"commands", "sandboxed_write"}, func(key string, _, v *yaml.Node) {
		n++
		if key == "commands" {
			bp.Commands = p.strList(v, where+".commands")
		} else {
			bp.SandboxedWrite = p.str(v, where+".sandboxed_write")
		}
	})
	if n != 1 {
		p.errf(p.pos(v), rulePersona, `%s: unrecognised form; expected "read-only", {commands:[...]}, or {sandboxed_write:<dir>}`, where)
	}
	return bp
}

func (p *fileParser) parseProviderShape(name string, k, v *yaml.Node) *Provider {
	pr := &Provider{Name: name, Pos: p.pos(k), Env: map[string]string{}}
	where := "providers." + name
	if isNull(v) {
		p.errf(p.pos(k), ruleProvider, "providers.%s: empty declaration", name)
		pr.declaredEmpty = true
		return pr
	}
	p.mapping(v, where, providerKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "model":
			pr.Model = p.str(v, where+".model")
		case "effort":
			pr.Effort = p.str(v, where+".effort")
		case "env":
			pr.Env = p.strMap(v, where+".env")
		}
	})
	return pr
}

func (p *fileParser) parseProposal(name string, k, v *yaml.Node) *Proposal {
	pr := &Proposal{Name: name, Pos: p.pos(k)}
	where := "proposals." + name
	// Proposal sub-blocks are barely validated upstream: unknown keys warn.
	p.mapping(v, where, proposalKeys, func(key string, kk, v *yaml.Node) {
		switch key {
		case "schema":
			pr.Schema = p.raw(v)
		case "draft":
			pr.Draft = p.raw(v)
		case "refine":
			pr.Refine = p.raw(v)
		case "views":
			pr.Views = p.raw(v)
		case "policy":
			pr.Policy = p.raw(v)
		case "execute":
			ex := &ProposalExecute{Pos: p.pos(kk)}
			pr.Execute = ex
			p.mapping(v, where+".execute", executeKeys, func(key string, _, v *yaml.Node) {
				w := where + ".execute." + key
				switch key {
				case "invoke":
					ex.Invoke = p.str(v, w)
				case "with":
					ex.With, _ = p.raw(v).(map[string]any)
				case "repeatable":
					ex.Repeatable = p.boolean(v, w)
				case "on_success":
					ex.OnSuccess = p.raw(v)
				case "background":
					ex.Background = p.boolean(v, w)
				case "on_complete":
					ex.OnComplete = p.parseEffects(v, w)
				}
			})
		}
	})
	return pr
}

func (p *fileParser) parsePhaseTemplate(name string, k, v *yaml.Node) *PhaseTemplate {
	pt := &PhaseTemplate{Name: name, Pos: p.pos(k), Parameters: map[string]*PhaseParam{}}
	where := "phase_templates." + name
	p.mapping(v, where, phaseTplKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "parameters":
			p.mapping(v, where+".parameters", nil, func(pn string, pk, pv *yaml.Node) {
				pp := &PhaseParam{Pos: p.pos(pk)}
				w := where + ".parameters." + pn
				// A parameter's extra keys (a description, say) only warn.
				p.mappingSev(pv, w, phaseParamKeys, "warning", func(key string, _, v *yaml.Node) {
					switch key {
					case "type":
						pp.Type = p.str(v, w+".type")
					case "required":
						pp.Required = p.boolean(v, w+".required")
					case "default":
						pp.Default = p.raw(v)
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
	ph := &Phases{Pos: p.pos(k), Graph: map[string]*PhaseNode{}}
	p.mapping(v, "phases", phasesKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "template":
			ph.Template = p.str(v, "phases.template")
		case "graph":
			p.mapping(v, "phases.graph", nil, func(id string, gk, gv *yaml.Node) {
				pn := &PhaseNode{ID: id, Pos: p.pos(gk), Params: map[string]any{}}
				if isNull(gv) {
					p.errf(p.pos(gk), rulePhases, "phases.graph[%q]: empty entry", id)
				}
				p.mapping(gv, "phases.graph."+id, nil, func(key string, _, v *yaml.Node) {
					switch key {
					case "next":
						pn.Next = p.raw(v)
					case "cycle_budgets":
						pn.CycleBudgets = p.raw(v)
					case "on_enter":
						pn.OnEnter = p.parseEffects(v, "phases.graph."+id+".on_enter")
					default:
						pn.Params[key] = p.raw(v)
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
	mm := &MetaMode{Key: key, Pos: p.pos(k)}
	where := "meta_modes." + key
	if isNull(v) {
		p.errf(p.pos(k), ruleMetaMode, "meta_mode %q: empty definition", key)
		return mm
	}
	p.mapping(v, where, metaModeKeys, func(f string, _, v *yaml.Node) {
		w := where + "." + f
		switch f {
		case "trigger":
			mm.Trigger = p.str(v, w)
		case "group":
			mm.Group = p.str(v, w)
		case "default":
			mm.Default = p.boolean(v, w)
		case "label":
			mm.Label = p.str(v, w)
		case "banner":
			mm.Banner = p.str(v, w)
		case "agent":
			mm.Agent = p.str(v, w)
		case "persist":
			mm.Persist = p.raw(v)
		case "cwd":
			mm.Cwd = p.str(v, w)
		case "tools":
			mm.Tools = p.strList(v, w)
		case "return":
			p.mapping(v, w, []string{"message", "intent"}, func(rk string, _, rv *yaml.Node) {
				if rk == "message" {
					mm.ReturnMessage = p.str(rv, w+".message")
				} else {
					mm.ReturnIntent = p.str(rv, w+".intent")
				}
			})
		}
	})
	return mm
}

func (p *fileParser) parseRouting(k, v *yaml.Node) *Routing {
	r := &Routing{Pos: p.pos(k), Raw: map[string]any{}}
	p.mapping(v, "routing", routingKeys, func(key string, _, v *yaml.Node) {
		w := "routing." + key
		r.Raw[key] = p.raw(v)
		switch key {
		case "enabled":
			r.Enabled = p.boolPtr(v, w)
		case "semantic_high_bar":
			r.SemanticHighBar = p.float(v, w)
		case "semantic_mid_bar":
			r.SemanticMidBar = p.float(v, w)
		case "extract_llm_on_no_match":
			r.ExtractLLMOnNoMatch = p.boolPtr(v, w)
		case "extract_llm_agent":
			r.ExtractLLMAgent = p.str(v, w)
		case "cache_enabled":
			p.boolPtr(v, w)
		case "cache_max_age":
			if s := p.str(v, w); s != "" && !isTemplated(s) {
				if _, err := duration.Parse(s); err != nil {
					p.errf(p.pos(v), ruleRouting, "routing.cache_max_age: app.ParseDuration: %v", err)
				}
			}
		case "stopwords_extra":
			p.strList(v, w)
		case "cache_cap", "revalidate_strikes":
			p.integer(v, w)
		case "cache_trim_fraction", "confidence_decay":
			p.float(v, w)
		case "free_form_fallback":
			p.mapping(v, w, []string{"state", "intent"}, func(fk string, _, fv *yaml.Node) {
				if fk == "state" {
					r.FreeFormFallbackState = p.str(fv, w+".state")
				} else {
					r.FreeFormFallbackIntent = p.str(fv, w+".intent")
				}
			})
		case "embedding":
			p.mapping(v, w, []string{"endpoint", "model", "cache_dir", "confident_bar", "margin"}, func(string, *yaml.Node, *yaml.Node) {})
		}
	})
	return r
}

// recordItems records in keys the position of each item below v: a
// mapping's values as "<prefix>.<key>", a list's string items as
// "<prefix>.<item>", two levels deep.
func (p *fileParser) recordItems(keys map[string]Pos, prefix string, v *yaml.Node) {
	d := deref(v)
	if d == nil {
		return
	}
	switch d.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(d.Content); i += 2 {
			k := prefix + "." + d.Content[i].Value
			if _, ok := keys[k]; !ok {
				keys[k] = p.pos(d.Content[i+1])
				keys[k+keySuffix] = p.pos(d.Content[i])
				if strings.Count(k, ".") < 2 {
					p.recordItems(keys, k, d.Content[i+1])
				}
			}
		}
	case yaml.SequenceNode:
		for _, it := range d.Content {
			if it.Kind == yaml.ScalarNode {
				if k := prefix + "." + it.Value; keys[k] == (Pos{}) {
					keys[k] = p.pos(it)
				}
			}
		}
	}
}

func (p *fileParser) parseImport(alias string, k, v *yaml.Node) *Import {
	im := &Import{Alias: alias, Pos: p.pos(k), Exits: map[string]*ImportExit{}, HostBindings: map[string]string{}, Keys: map[string]Pos{}}
	where := "imports." + alias
	if isNull(v) {
		p.errf(p.pos(k), ruleImports, "imports.%s: empty definition", alias)
		return im
	}
	p.mapping(v, where, importKeys, func(key string, kk, v *yaml.Node) {
		w := where + "." + key
		im.Keys[key] = p.pos(v)
		p.recordItems(im.Keys, key, v)
		switch key {
		case "source":
			im.Source = p.str(v, w)
		case "version":
			im.Version = p.str(v, w)
		case "entry":
			im.Entry = p.str(v, w)
		case "hosts":
			im.Hosts = p.str(v, w)
		case "world_in":
			im.WorldIn = p.kvList(v, w)
		case "exits":
			p.mapping(v, w, nil, func(en string, ek, ev *yaml.Node) {
				ie := &ImportExit{Pos: p.pos(ek)}
				p.mapping(ev, w+"."+en, []string{"to", "set"}, func(f string, _, fv *yaml.Node) {
					if f == "to" {
						ie.To = p.str(fv, w+"."+en+".to")
						ie.ToPos = p.pos(fv)
					} else {
						ie.Set = p.kvList(fv, w+"."+en+".set")
					}
				})
				im.Exits[en] = ie
			})
		case "intents":
			p.mapping(v, w, []string{"export", "import"}, func(f string, _, fv *yaml.Node) {
				var names []string
				if d := deref(fv); d != nil && d.Kind == yaml.MappingNode {
					names = keysOf(d)
				} else {
					names = p.strList(fv, w+"."+f)
				}
				if f == "export" {
					im.ExportIntent = names
				} else {
					im.ImportIntent = names
				}
			})
		case "overrides":
			ov := &ImportOverrides{Pos: p.pos(kk)}
			p.mapping(v, w, []string{"states", "intents", "prompts"}, func(f string, _, fv *yaml.Node) {
				switch f {
				case "states":
					ov.States, _ = p.raw(fv).(map[string]any)
				case "intents":
					ov.Intents, _ = p.raw(fv).(map[string]any)
				case "prompts":
					ov.Prompts = p.strMap(fv, w+".prompts")
				}
			})
			im.Overrides = ov
		case "host_bindings":
			im.HostBindings = p.strMap(v, w)
		}
	})
	return im
}

func (p *fileParser) parseInterface(name string, k, v *yaml.Node) *HostInterface {
	hi := &HostInterface{Name: name, Pos: p.pos(k), Operations: map[string]*Operation{}}
	where := "host_interfaces." + name
	p.mapping(v, where, ifaceKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "description":
			hi.Description = p.str(v, where+".description")
		case "default":
			hi.Default = p.str(v, where+".default")
		case "operations":
			p.mapping(v, where+".operations", nil, func(op string, ok, ov *yaml.Node) {
				o := &Operation{Pos: p.pos(ok)}
				// Operations are metadata only upstream: an unknown key warns.
				p.mappingSev(ov, where+".operations."+op, []string{"input", "output"}, "warning", func(f string, _, fv *yaml.Node) {
					if f == "input" {
						o.Input = p.raw(fv)
					} else {
						o.Output = p.raw(fv)
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
	if d := deref(n); d != nil && d.Kind == yaml.MappingNode && len(d.Content) >= 2 {
		out = make([]KV, 0, len(d.Content)/2)
	}
	p.mapping(n, where, nil, func(key string, _, v *yaml.Node) {
		out = append(out, KV{Key: key, Value: p.raw(v), Pos: p.valuePos(v)})
	})
	if len(out) == 0 {
		return nil
	}
	return out
}
