package story

import (
	"fmt"
	"maps"
	"strings"

	"go.yaml.in/yaml/v3"

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
		{Key: "intents", Read: func(_, v *yaml.Node) { st.Intents, st.IntentOrder = p.parseIntents(v, "intents", nil, false) }},
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
		{Key: "checkpoint_intents", Read: func(_, v *yaml.Node) { st.CheckpointIntents, _ = p.parseIntents(v, "checkpoint_intents", nil, true) }},
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
			// Schema form; extra keys are ignored upstream (non-strict),
			// but not a key given twice, written or through an alias key.
			seen := yamlnode.NewSeen(d)
			for i := 0; i+1 < len(d.Content); i += 2 {
				val := d.Content[i+1]
				if key := yamlnode.Deref(d.Content[i]); key != nil && key.Kind == yaml.ScalarNode && key.Tag != "!!merge" {
					if prev := seen.Prev(i, key.Value); prev != nil {
						p.repeatedWorldKey(name, d.Content[i], prev)
						continue
					}
				}
				switch d.Content[i].Value {
				case "type":
					wv.Type = p.Str(val, "world."+name+".type")
				case "default":
					wv.Default = p.Raw(val)
					wv.HasDefault, wv.DefaultUnsigned = true, unsignedLiteral(val)
					wv.HexEscapes = p.hexEscapes(val)
				case "values":
					if vs, ok := p.Raw(val).([]any); ok {
						wv.Values = vs
					}
				default:
					if key := yamlnode.Deref(d.Content[i]); key != nil && key.Kind == yaml.ScalarNode && key.Tag != "!!merge" {
						if wv.Ignored == nil {
							wv.Ignored = map[string]Pos{}
						}
						wv.Ignored[key.Value] = p.Pos(d.Content[i])
					}
				}
			}
			return wv
		}
	}
	wv.Default = p.Raw(v)
	wv.HasDefault, wv.DefaultUnsigned = !yamlnode.IsNull(v), unsignedLiteral(v)
	wv.HexEscapes = p.hexEscapes(v)
	return wv
}

// repeatedWorldKey reports the key k of world entry name given again
// (first at prev): upstream refuses the story.
func (p *fileParser) repeatedWorldKey(name string, k, prev *yaml.Node) {
	through := ""
	if k.Kind == yaml.AliasNode {
		through = fmt.Sprintf(" (given again through the alias key *%s)", k.Value)
	}
	p.Errf(p.Pos(k), RuleDuplicateKey, "world.%s: mapping key %q already defined at line %d, column %d%s; the existing engine refuses the story: keep one of them", yamlnode.KeyText(name), yamlnode.Deref(k).Value, prev.Line, prev.Column, through)
}

// unsignedLiteral reports a plain untagged integer without a minus sign.
func unsignedLiteral(n *yaml.Node) bool {
	n = yamlnode.Deref(n)
	return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!int" && n.Style&yaml.TaggedStyle == 0 && !strings.HasPrefix(n.Value, "-")
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
