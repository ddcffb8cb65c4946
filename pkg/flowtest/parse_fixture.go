package flowtest

import (
	"fmt"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"
	"kitsoki/internal/yamlnode"
)

// The keys of each kind of mapping a fixture holds: each reader below
// reads exactly its set's known keys (TestKeySetsAreRead).
var (
	fixtureKeys = &keySet{
		known: []string{"test_kind", "app", "initial_state", "initial_world", "turns", "expect_no_errors", "expect_terminal",
			"host_handlers", "host_cassette", "starlark_http_cassette", "starlark_inspect_cassette", "host_bindings",
			"expect_no_host_calls", "recording", "use_orchestrator", "strict_cassette_coverage", "mode",
			"expect_events_count_atleast", "expect_events_count_atmost", "expect_world_final", "expect_files"},
		ignored: map[string]string{
			"expect_outcome":     "upstream documents it but never reads it; assert the state with expect_state or expect_terminal",
			"expect_final_state": "upstream documents it but never reads it; use expect_state on the last turn",
		},
	}
	fileExpectKeys = &keySet{known: []string{"path", "content_matches", "must_not_exist"}}
	turnKeys       = &keySet{
		known: []string{"intent", "input", "advance_clock", "display_input", "world_override", "expect_state",
			"expect_not_state", "expect_state_in", "expect_world", "expect_world_full", "expect_world_unchanged",
			"expect_slots", "expect_events", "expect_events_exact", "expect_error", "expect_view_matches",
			"expect_no_view", "expect_host_calls", "expect_no_host_calls", "expect_inbox", "expect_jobs"},
		ignored: map[string]string{
			"expect_world_final": "it is a fixture-level key; at turn level upstream ignores it (move it to the top level, or use expect_world)",
			"expect_terminal":    "it is a fixture-level key; at turn level upstream ignores it (move it to the top level)",
			"then":               "upstream has no such turn key",
		},
	}
	intentKeys      = &keySet{known: []string{"name", "slots"}}
	errorExpectKeys = &keySet{known: []string{"code", "allowed_contains", "missing_slots", "guard_hint"}}
	hostCallKeys    = &keySet{
		known:   []string{"handler", "args", "times"},
		ignored: map[string]string{"id": "upstream matches calls by handler and args only; put the effect id under args: {call: ID}"},
	}
	inboxKeys    = &keySet{known: []string{"unread", "needs_attention", "severities"}}
	jobKeys      = &keySet{known: []string{"namespace", "status"}}
	eventKeys    = &keySet{known: []string{"kind", "from", "to", "effect"}}
	envelopeKeys = &keySet{
		known:   []string{"data", "error", "infra_error"},
		ignored: map[string]string{"delay": "upstream reads delay only at the top level of a stub; move it up to delay the whole handler"},
	}
	stubKeys = &keySet{known: []string{"data", "error", "infra_error", "delay", "request_clarification", "by_call", "by_op"}}
)

// fixture reads one flow document's keys (flow-format.md §2).
func (p *parser) fixture(root *yaml.Node) *Fixture {
	fx := &Fixture{Pos: p.pos(root)}
	fx.keys = p.fieldsAt(root, "fixture", fixtureKeys, func(key string, v *yaml.Node) {
		switch key {
		case "test_kind":
		case "app":
			fx.App = p.str(v, "app")
		case "initial_state":
			fx.InitialState = p.str(v, "initial_state")
		case "initial_world":
			fx.InitialWorld = p.kvs(v, "initial_world")
		case "turns":
			if v = p.node(v, yaml.SequenceNode, "turns", "a list of turns"); v == nil {
				return
			}
			fx.Turns = slices.Grow(fx.Turns, len(v.Content))
			for i, t := range v.Content {
				fx.Turns = append(fx.Turns, p.turn(yamlnode.Deref(t), i))
			}
		case "expect_no_errors":
			fx.ExpectNoErrors = ptr(p.boolean(v, "expect_no_errors"))
		case "expect_terminal":
			fx.ExpectTerminal = ptr(p.boolean(v, "expect_terminal"))
		case "host_handlers":
			if v = p.node(v, yaml.MappingNode, "host_handlers", "a mapping of handler name to stub"); v == nil {
				return
			}
			for i := 0; i+1 < len(v.Content); i += 2 {
				fx.HostHandlers = append(fx.HostHandlers, p.stub(v.Content[i], yamlnode.Deref(v.Content[i+1])))
			}
		case "host_cassette":
			fx.HostCassette = p.str(v, "host_cassette")
		case "starlark_http_cassette":
			fx.StarlarkHTTPCassette = p.str(v, "starlark_http_cassette")
		case "starlark_inspect_cassette":
			fx.StarlarkInspectCassette = p.str(v, "starlark_inspect_cassette")
		case "host_bindings":
			fx.HostBindings = p.hostBindings(v)
		case "expect_no_host_calls":
			fx.ExpectNoHostCalls = p.strList(v, "expect_no_host_calls")
		case "recording":
			fx.Recording = p.str(v, "recording")
		case "use_orchestrator":
			fx.UseOrchestrator = ptr(p.boolean(v, "use_orchestrator"))
		case "strict_cassette_coverage":
			fx.StrictCassetteCoverage = p.boolean(v, "strict_cassette_coverage")
		case "mode":
			fx.Mode = p.str(v, "mode")
			if !slices.Contains([]string{"", "one-shot", "oneshot", "staged"}, fx.Mode) {
				p.errf(v, ruleValue, "mode: invalid mode %q (want \"staged\" or \"one-shot\")", fx.Mode)
			}
		case "expect_events_count_atleast":
			fx.ExpectEventsAtLeast = ptr(p.integer(v, "expect_events_count_atleast"))
		case "expect_events_count_atmost":
			fx.ExpectEventsAtMost = ptr(p.integer(v, "expect_events_count_atmost"))
		case "expect_world_final":
			fx.ExpectWorldFinal = p.kvs(v, "expect_world_final")
		case "expect_files":
			fx.ExpectFiles = p.fileExpects(v)
		}
	})
	if fx.HostCassette != "" && len(fx.HostHandlers) > 0 {
		p.errf(root, ruleShape, "host_cassette and host_handlers are mutually exclusive; answer every handler from the cassette, or stub them all")
	}
	return fx
}

// hostBindings reads host_bindings: handler names by binding (a number or
// a boolean is taken as its text, as upstream does).
func (p *parser) hostBindings(v *yaml.Node) []KV {
	var out []KV
	for _, kv := range p.kvs(v, "host_bindings") {
		switch val := kv.Value.(type) {
		case string:
		case map[string]any, []any, nil:
			p.errf(v, ruleShape, "host_bindings.%s: expected a handler name (string)", kv.Key)
			continue
		default:
			kv.Value = fmt.Sprint(val)
		}
		out = append(out, kv)
	}
	return out
}

// fileExpects reads expect_files.
func (p *parser) fileExpects(v *yaml.Node) []FileExpect {
	var out []FileExpect
	p.eachItem(v, "expect_files", "{path, content_matches?, must_not_exist?}", func(c *yaml.Node, w string) {
		fe := FileExpect{Pos: p.pos(c)}
		p.fields(c, w, fileExpectKeys, func(key string, v *yaml.Node) {
			switch key {
			case "path":
				fe.Path = p.str(v, w+".path")
			case "content_matches":
				fe.ContentMatches = p.str(v, w+".content_matches")
			case "must_not_exist":
				fe.MustNotExist = p.boolean(v, w+".must_not_exist")
			}
		})
		out = append(out, fe)
	})
	return out
}

// turn reads one turns: entry (flow-format.md §3).
func (p *parser) turn(n *yaml.Node, i int) *Turn {
	t := &Turn{Index: i, Pos: p.pos(n)}
	w := "turns[" + strconv.Itoa(i) + "]"
	t.keys = p.fieldsAt(n, w, turnKeys, func(key string, v *yaml.Node) {
		switch key {
		case "intent":
			t.Intent = p.intentSpec(v, w)
		case "input":
			t.Input, t.HasInput = p.str(v, w+".input"), true
		case "advance_clock":
			s, ok := p.duration(v, w+".advance_clock")
			t.AdvanceRaw, t.HasAdvance = s, true
			if ok {
				t.AdvanceClock, _ = parseDuration(s)
			}
		case "display_input":
			t.DisplayInput = p.str(v, w+".display_input")
		case "world_override":
			t.WorldOverride = p.kvs(v, w+".world_override")
		case "expect_state":
			t.ExpectState = ptr(p.str(v, w+".expect_state"))
		case "expect_not_state":
			t.ExpectNotState = ptr(p.str(v, w+".expect_not_state"))
		case "expect_state_in":
			t.ExpectStateIn = p.strList(v, w+".expect_state_in")
		case "expect_world":
			t.ExpectWorld = p.kvs(v, w+".expect_world")
		case "expect_world_full":
			t.ExpectWorldFull, t.HasWorldFull = p.kvs(v, w+".expect_world_full"), true
		case "expect_world_unchanged":
			t.ExpectWorldUnchanged = p.boolean(v, w+".expect_world_unchanged")
		case "expect_slots":
			t.ExpectSlots = p.kvs(v, w+".expect_slots")
		case "expect_events":
			t.ExpectEvents = p.events(v, w+".expect_events")
		case "expect_events_exact":
			t.ExpectEventsExact, t.HasEventsExact = p.events(v, w+".expect_events_exact"), true
		case "expect_error":
			t.ExpectError = p.errorExpect(v, w+".expect_error")
		case "expect_view_matches":
			t.ExpectViewMatches = ptr(p.str(v, w+".expect_view_matches"))
		case "expect_no_view":
			t.ExpectNoView = p.boolean(v, w+".expect_no_view")
		case "expect_host_calls":
			t.ExpectHostCalls = p.hostCalls(v, w+".expect_host_calls")
		case "expect_no_host_calls":
			t.ExpectNoHostCalls = p.strList(v, w+".expect_no_host_calls")
		case "expect_inbox":
			t.ExpectInbox = p.inbox(v, w+".expect_inbox")
		case "expect_jobs":
			t.ExpectJobs = p.jobs(v, w+".expect_jobs")
		}
	})
	if t.Intent == nil && !t.HasInput && !t.HasAdvance {
		p.errf(n, ruleShape, "%s: a turn needs one of intent:, input: or advance_clock:", w)
	}
	return t
}

// intentSpec reads a turn's intent: a name, or {name, slots}.
func (p *parser) intentSpec(v *yaml.Node, w string) *IntentSpec {
	is := &IntentSpec{Pos: p.pos(v)}
	if v.Kind == yaml.ScalarNode {
		is.Name = p.str(v, w+".intent")
	} else {
		p.fields(v, w+".intent", intentKeys, func(key string, v *yaml.Node) {
			switch key {
			case "name":
				is.Name, is.Pos = p.str(v, w+".intent.name"), p.pos(v)
			case "slots":
				is.Slots = p.kvs(v, w+".intent.slots")
			}
		})
	}
	if is.Name == "" {
		// Upstream fires it anyway (and the engine rejects it).
		p.warnf(v, ruleShape, "%s.intent: no name: the turn fires an empty intent, which every state rejects (intent: {name: NAME, slots: {...}})", w)
	}
	return is
}

// errorExpect reads a turn's expect_error (where is its place).
func (p *parser) errorExpect(v *yaml.Node, where string) *ErrorExpect {
	ee := &ErrorExpect{Pos: p.pos(v)}
	p.fields(v, where, errorExpectKeys, func(key string, v *yaml.Node) {
		switch key {
		case "code":
			ee.Code = p.str(v, where+".code")
		case "allowed_contains":
			ee.AllowedContains = p.strList(v, where+".allowed_contains")
		case "missing_slots":
			ee.MissingSlots = p.strList(v, where+".missing_slots")
		case "guard_hint":
			ee.GuardHint = p.str(v, where+".guard_hint")
		}
	})
	return ee
}

// hostCalls reads a turn's expect_host_calls list.
func (p *parser) hostCalls(v *yaml.Node, where string) []HostCallExpect {
	var out []HostCallExpect
	p.eachItem(v, where, "{handler, args?, times?}", func(c *yaml.Node, ww string) {
		hc := HostCallExpect{Pos: p.pos(c)}
		p.fields(c, ww, hostCallKeys, func(key string, v *yaml.Node) {
			switch key {
			case "handler":
				hc.Handler = p.str(v, ww+".handler")
			case "args":
				hc.Args = p.kvs(v, ww+".args")
			case "times":
				hc.Times = ptr(p.integer(v, ww+".times"))
			}
		})
		out = append(out, hc)
	})
	return out
}

// inbox reads a turn's expect_inbox.
func (p *parser) inbox(v *yaml.Node, where string) *InboxExpect {
	ie := &InboxExpect{Pos: p.pos(v)}
	p.fields(v, where, inboxKeys, func(key string, v *yaml.Node) {
		switch key {
		case "unread":
			ie.Unread = ptr(p.integer(v, where+".unread"))
		case "needs_attention":
			ie.NeedsAttention = ptr(p.integer(v, where+".needs_attention"))
		case "severities":
			ie.Severities, ie.HasSeverities = p.strList(v, where+".severities"), true
		}
	})
	return ie
}

// jobs reads a turn's expect_jobs list (an empty list expects no job).
func (p *parser) jobs(v *yaml.Node, where string) []JobExpect {
	out := []JobExpect{}
	ok := p.eachItem(v, where, "{namespace, status}", func(c *yaml.Node, ww string) {
		je := JobExpect{Pos: p.pos(c)}
		p.fields(c, ww, jobKeys, func(key string, v *yaml.Node) {
			switch key {
			case "namespace":
				je.Namespace = p.str(v, ww+".namespace")
			case "status":
				je.Status = p.str(v, ww+".status")
			}
		})
		out = append(out, je)
	})
	if !ok {
		return nil
	}
	return out
}

// eachItem calls item for each entry of the list v with its place
// (where[i]); a value that is not a list is an error naming what the list
// holds (want), and false.
func (p *parser) eachItem(v *yaml.Node, where, want string, item func(c *yaml.Node, w string)) bool {
	if v.Kind != yaml.SequenceNode {
		p.errf(v, ruleShape, "%s: expected a list of %s", where, want)
		return false
	}
	for j, c := range v.Content {
		item(c, where+"["+strconv.Itoa(j)+"]")
	}
	return true
}

func (p *parser) events(v *yaml.Node, where string) []EventExpect {
	out := []EventExpect{}
	ok := p.eachItem(v, where, "{kind, from?, to?, effect?}", func(c *yaml.Node, w string) {
		e := EventExpect{Pos: p.pos(c)}
		p.fields(c, w, eventKeys, func(key string, v *yaml.Node) {
			switch key {
			case "kind":
				e.Kind = p.str(v, w+".kind")
			case "from":
				e.From = p.str(v, w+".from")
			case "to":
				e.To = p.str(v, w+".to")
			case "effect":
				e.Effect = p.kvs(v, w+".effect")
			}
		})
		out = append(out, e)
	})
	if !ok {
		return nil
	}
	return out
}

// stub reads one host_handlers entry (flow-format.md §4.1).
func (p *parser) stub(k, v *yaml.Node) *Stub {
	s := &Stub{Name: k.Value, Pos: p.pos(k)}
	w := "host_handlers." + k.Value
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" {
		return s
	}
	p.fields(v, w, stubKeys, func(key string, v *yaml.Node) {
		switch key {
		case "data":
			s.Data = p.dataMap(v, w+".data")
		case "error":
			s.Error = p.str(v, w+".error")
		case "infra_error":
			s.InfraError = p.str(v, w+".infra_error")
		case "delay":
			// Upstream parses a stub's delay when the stub is called: a bad
			// one is that call's infra error, not a fixture that cannot run.
			raw := p.str(v, w+".delay")
			d, err := parseDuration(raw)
			if err != nil {
				p.warnf(v, ruleValue, "%s.delay: %v; every call of this stub fails with an infra error", w, err)
				s.DelayErr = fmt.Sprintf("stub %s: parse delay: %v", s.Name, err)
			}
			s.Delay = d
		case "request_clarification":
			s.RequestClarification = p.str(v, w+".request_clarification")
		case "by_call":
			s.ByCall = p.envelopes(v, w+".by_call")
		case "by_op":
			s.ByOp = p.envelopes(v, w+".by_op")
		}
	})
	return s
}

// envelopes reads a stub's by_call or by_op: id -> {data, error, infra_error}.
func (p *parser) envelopes(v *yaml.Node, where string) map[string]*Envelope {
	out := map[string]*Envelope{}
	if v.Kind != yaml.MappingNode {
		p.errf(v, ruleShape, "%s: expected a mapping of id to {data, error, infra_error}", where)
		return out
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		id, ev := v.Content[i], yamlnode.Deref(v.Content[i+1])
		e := &Envelope{Pos: p.pos(id)}
		w := where + "." + id.Value
		p.fields(ev, w, envelopeKeys, func(key string, v *yaml.Node) {
			switch key {
			case "data":
				e.Data = p.dataMap(v, w+".data")
			case "error":
				e.Error = p.str(v, w+".error")
			case "infra_error":
				e.InfraError = p.str(v, w+".infra_error")
			}
		})
		out[id.Value] = e
	}
	return out
}
