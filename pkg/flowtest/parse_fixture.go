package flowtest

import (
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"
)

// fixture reads one flow document's keys (flow-format.md §2).
func (p *parser) fixture(root *yaml.Node) *Fixture {
	fx := &Fixture{Pos: p.pos(root)}
	known := map[string]func(k, v *yaml.Node){
		"test_kind":     func(k, v *yaml.Node) {},
		"app":           func(k, v *yaml.Node) { fx.App = p.str(v, "app") },
		"initial_state": func(k, v *yaml.Node) { fx.InitialState = p.str(v, "initial_state") },
		"initial_world": func(k, v *yaml.Node) { fx.InitialWorld = p.kvs(v, "initial_world") },
		"turns": func(k, v *yaml.Node) {
			if v = p.node(v, yaml.SequenceNode, "turns", "a list of turns"); v == nil {
				return
			}
			for i, t := range v.Content {
				fx.Turns = append(fx.Turns, p.turn(resolve(t), i))
			}
		},
		"expect_no_errors": func(k, v *yaml.Node) { fx.ExpectNoErrors = ptr(p.boolean(v, "expect_no_errors")) },
		"expect_terminal":  func(k, v *yaml.Node) { fx.ExpectTerminal = ptr(p.boolean(v, "expect_terminal")) },
		"host_handlers": func(k, v *yaml.Node) {
			if v = p.node(v, yaml.MappingNode, "host_handlers", "a mapping of handler name to stub"); v == nil {
				return
			}
			for i := 0; i+1 < len(v.Content); i += 2 {
				fx.HostHandlers = append(fx.HostHandlers, p.stub(v.Content[i], resolve(v.Content[i+1])))
			}
		},
		"host_cassette":             func(k, v *yaml.Node) { fx.HostCassette = p.str(v, "host_cassette") },
		"starlark_http_cassette":    func(k, v *yaml.Node) { fx.StarlarkHTTPCassette = p.str(v, "starlark_http_cassette") },
		"starlark_inspect_cassette": func(k, v *yaml.Node) { fx.StarlarkInspectCassette = p.str(v, "starlark_inspect_cassette") },
		"host_bindings": func(k, v *yaml.Node) {
			for _, kv := range p.kvs(v, "host_bindings") {
				switch val := kv.Value.(type) {
				case string:
				case map[string]any, []any, nil:
					p.errf(v, ruleShape, "host_bindings.%s: expected a handler name (string)", kv.Key)
					continue
				default:
					kv.Value = fmt.Sprint(val)
				}
				fx.HostBindings = append(fx.HostBindings, kv)
			}
		},
		"expect_no_host_calls":     func(k, v *yaml.Node) { fx.ExpectNoHostCalls = p.strList(v, "expect_no_host_calls") },
		"recording":                func(k, v *yaml.Node) { fx.Recording = p.str(v, "recording") },
		"use_orchestrator":         func(k, v *yaml.Node) { fx.UseOrchestrator = ptr(p.boolean(v, "use_orchestrator")) },
		"strict_cassette_coverage": func(k, v *yaml.Node) { fx.StrictCassetteCoverage = p.boolean(v, "strict_cassette_coverage") },
		"mode": func(k, v *yaml.Node) {
			fx.Mode = p.str(v, "mode")
			if !slices.Contains([]string{"", "one-shot", "oneshot", "staged"}, fx.Mode) {
				p.errf(v, ruleValue, "mode: invalid mode %q (want \"staged\" or \"one-shot\")", fx.Mode)
			}
		},
		"expect_events_count_atleast": func(k, v *yaml.Node) { fx.ExpectEventsAtLeast = ptr(p.integer(v, "expect_events_count_atleast")) },
		"expect_events_count_atmost":  func(k, v *yaml.Node) { fx.ExpectEventsAtMost = ptr(p.integer(v, "expect_events_count_atmost")) },
		"expect_world_final":          func(k, v *yaml.Node) { fx.ExpectWorldFinal = p.kvs(v, "expect_world_final") },
		"expect_files": func(k, v *yaml.Node) {
			if v.Kind != yaml.SequenceNode {
				p.errf(v, ruleShape, "expect_files: expected a list of {path, content_matches?, must_not_exist?}")
				return
			}
			for i, c := range v.Content {
				fe := FileExpect{Pos: p.pos(c)}
				w := fmt.Sprintf("expect_files[%d]", i)
				p.fields(c, w, map[string]func(k, v *yaml.Node){
					"path":            func(k, v *yaml.Node) { fe.Path = p.str(v, w+".path") },
					"content_matches": func(k, v *yaml.Node) { fe.ContentMatches = p.str(v, w+".content_matches") },
					"must_not_exist":  func(k, v *yaml.Node) { fe.MustNotExist = p.boolean(v, w+".must_not_exist") },
				}, nil)
				fx.ExpectFiles = append(fx.ExpectFiles, fe)
			}
		},
	}
	fx.KeyPos, fx.ValPos = p.fieldsAt(root, "fixture", known, map[string]string{
		"expect_outcome":     "upstream documents it but never reads it; assert the state with expect_state or expect_terminal",
		"expect_final_state": "upstream documents it but never reads it; use expect_state on the last turn",
	})
	if fx.HostCassette != "" && len(fx.HostHandlers) > 0 {
		p.errf(root, ruleShape, "host_cassette and host_handlers are mutually exclusive; answer every handler from the cassette, or stub them all")
	}
	return fx
}

var turnIgnored = map[string]string{
	"expect_world_final": "it is a fixture-level key; at turn level upstream ignores it (move it to the top level, or use expect_world)",
	"expect_terminal":    "it is a fixture-level key; at turn level upstream ignores it (move it to the top level)",
	"then":               "upstream has no such turn key",
}

// turn reads one turns: entry (flow-format.md §3).
func (p *parser) turn(n *yaml.Node, i int) *Turn {
	t := &Turn{Index: i, Pos: p.pos(n)}
	w := fmt.Sprintf("turns[%d]", i)
	known := map[string]func(k, v *yaml.Node){
		"intent": func(k, v *yaml.Node) {
			is := &IntentSpec{Pos: p.pos(v)}
			if v.Kind == yaml.ScalarNode {
				is.Name = p.str(v, w+".intent")
			} else {
				p.fields(v, w+".intent", map[string]func(k, v *yaml.Node){
					"name":  func(k, v *yaml.Node) { is.Name, is.Pos = p.str(v, w+".intent.name"), p.pos(v) },
					"slots": func(k, v *yaml.Node) { is.Slots = p.kvs(v, w+".intent.slots") },
				}, nil)
			}
			if is.Name == "" {
				// Upstream fires it anyway (and the engine rejects it).
				p.warnf(v, ruleShape, "%s.intent: no name: the turn fires an empty intent, which every state rejects (intent: {name: NAME, slots: {...}})", w)
			}
			t.Intent = is
		},
		"input": func(k, v *yaml.Node) { t.Input, t.HasInput = p.str(v, w+".input"), true },
		"advance_clock": func(k, v *yaml.Node) {
			s, ok := p.duration(v, w+".advance_clock")
			t.AdvanceRaw, t.HasAdvance = s, true
			if ok {
				t.AdvanceClock, _ = parseDuration(s)
			}
		},
		"display_input":          func(k, v *yaml.Node) { t.DisplayInput = p.str(v, w+".display_input") },
		"world_override":         func(k, v *yaml.Node) { t.WorldOverride = p.kvs(v, w+".world_override") },
		"expect_state":           func(k, v *yaml.Node) { t.ExpectState = ptr(p.str(v, w+".expect_state")) },
		"expect_not_state":       func(k, v *yaml.Node) { t.ExpectNotState = ptr(p.str(v, w+".expect_not_state")) },
		"expect_state_in":        func(k, v *yaml.Node) { t.ExpectStateIn = p.strList(v, w+".expect_state_in") },
		"expect_world":           func(k, v *yaml.Node) { t.ExpectWorld = p.kvs(v, w+".expect_world") },
		"expect_world_full":      func(k, v *yaml.Node) { t.ExpectWorldFull, t.HasWorldFull = p.kvs(v, w+".expect_world_full"), true },
		"expect_world_unchanged": func(k, v *yaml.Node) { t.ExpectWorldUnchanged = p.boolean(v, w+".expect_world_unchanged") },
		"expect_slots":           func(k, v *yaml.Node) { t.ExpectSlots = p.kvs(v, w+".expect_slots") },
		"expect_events":          func(k, v *yaml.Node) { t.ExpectEvents = p.events(v, w+".expect_events") },
		"expect_events_exact": func(k, v *yaml.Node) {
			t.ExpectEventsExact, t.HasEventsExact = p.events(v, w+".expect_events_exact"), true
		},
		"expect_error": func(k, v *yaml.Node) {
			ee := &ErrorExpect{Pos: p.pos(v)}
			ww := w + ".expect_error"
			p.fields(v, ww, map[string]func(k, v *yaml.Node){
				"code":             func(k, v *yaml.Node) { ee.Code = p.str(v, ww+".code") },
				"allowed_contains": func(k, v *yaml.Node) { ee.AllowedContains = p.strList(v, ww+".allowed_contains") },
				"missing_slots":    func(k, v *yaml.Node) { ee.MissingSlots = p.strList(v, ww+".missing_slots") },
				"guard_hint":       func(k, v *yaml.Node) { ee.GuardHint = p.str(v, ww+".guard_hint") },
			}, nil)
			t.ExpectError = ee
		},
		"expect_view_matches": func(k, v *yaml.Node) { t.ExpectViewMatches = ptr(p.str(v, w+".expect_view_matches")) },
		"expect_no_view":      func(k, v *yaml.Node) { t.ExpectNoView = p.boolean(v, w+".expect_no_view") },
		"expect_host_calls": func(k, v *yaml.Node) {
			if v.Kind != yaml.SequenceNode {
				p.errf(v, ruleShape, "%s.expect_host_calls: expected a list of {handler, args?, times?}", w)
				return
			}
			for j, c := range v.Content {
				hc := HostCallExpect{Pos: p.pos(c)}
				ww := fmt.Sprintf("%s.expect_host_calls[%d]", w, j)
				p.fields(c, ww, map[string]func(k, v *yaml.Node){
					"handler": func(k, v *yaml.Node) { hc.Handler = p.str(v, ww+".handler") },
					"args":    func(k, v *yaml.Node) { hc.Args = p.kvs(v, ww+".args") },
					"times":   func(k, v *yaml.Node) { hc.Times = ptr(p.integer(v, ww+".times")) },
				}, map[string]string{"id": "upstream matches calls by handler and args only; put the effect id under args: {call: ID}"})
				t.ExpectHostCalls = append(t.ExpectHostCalls, hc)
			}
		},
		"expect_no_host_calls": func(k, v *yaml.Node) { t.ExpectNoHostCalls = p.strList(v, w+".expect_no_host_calls") },
		"expect_inbox": func(k, v *yaml.Node) {
			ie := &InboxExpect{Pos: p.pos(v)}
			ww := w + ".expect_inbox"
			p.fields(v, ww, map[string]func(k, v *yaml.Node){
				"unread":          func(k, v *yaml.Node) { ie.Unread = ptr(p.integer(v, ww+".unread")) },
				"needs_attention": func(k, v *yaml.Node) { ie.NeedsAttention = ptr(p.integer(v, ww+".needs_attention")) },
				"severities":      func(k, v *yaml.Node) { ie.Severities, ie.HasSeverities = p.strList(v, ww+".severities"), true },
			}, nil)
			t.ExpectInbox = ie
		},
		"expect_jobs": func(k, v *yaml.Node) {
			if v.Kind != yaml.SequenceNode {
				p.errf(v, ruleShape, "%s.expect_jobs: expected a list of {namespace, status}", w)
				return
			}
			t.ExpectJobs = []JobExpect{}
			for j, c := range v.Content {
				je := JobExpect{Pos: p.pos(c)}
				ww := fmt.Sprintf("%s.expect_jobs[%d]", w, j)
				p.fields(c, ww, map[string]func(k, v *yaml.Node){
					"namespace": func(k, v *yaml.Node) { je.Namespace = p.str(v, ww+".namespace") },
					"status":    func(k, v *yaml.Node) { je.Status = p.str(v, ww+".status") },
				}, nil)
				t.ExpectJobs = append(t.ExpectJobs, je)
			}
		},
	}
	t.KeyPos, t.ValPos = p.fieldsAt(n, w, known, turnIgnored)
	if t.Intent == nil && !t.HasInput && !t.HasAdvance {
		p.errf(n, ruleShape, "%s: a turn needs one of intent:, input: or advance_clock:", w)
	}
	return t
}

func (p *parser) events(v *yaml.Node, where string) []EventExpect {
	if v.Kind != yaml.SequenceNode {
		p.errf(v, ruleShape, "%s: expected a list of {kind, from?, to?, effect?}", where)
		return nil
	}
	out := []EventExpect{}
	for i, c := range v.Content {
		e := EventExpect{Pos: p.pos(c)}
		w := fmt.Sprintf("%s[%d]", where, i)
		p.fields(c, w, map[string]func(k, v *yaml.Node){
			"kind":   func(k, v *yaml.Node) { e.Kind = p.str(v, w+".kind") },
			"from":   func(k, v *yaml.Node) { e.From = p.str(v, w+".from") },
			"to":     func(k, v *yaml.Node) { e.To = p.str(v, w+".to") },
			"effect": func(k, v *yaml.Node) { e.Effect = p.kvs(v, w+".effect") },
		}, nil)
		out = append(out, e)
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
	envelopes := func(v *yaml.Node, ww string) map[string]*Envelope {
		out := map[string]*Envelope{}
		if v.Kind != yaml.MappingNode {
			p.errf(v, ruleShape, "%s: expected a mapping of id to {data, error, infra_error}", ww)
			return out
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			id, ev := v.Content[i], resolve(v.Content[i+1])
			e := &Envelope{Pos: p.pos(id)}
			www := ww + "." + id.Value
			p.fields(ev, www, map[string]func(k, v *yaml.Node){
				"data":        func(k, v *yaml.Node) { e.Data = p.dataMap(v, www+".data") },
				"error":       func(k, v *yaml.Node) { e.Error = p.str(v, www+".error") },
				"infra_error": func(k, v *yaml.Node) { e.InfraError = p.str(v, www+".infra_error") },
			}, map[string]string{"delay": "upstream reads delay only at the top level of a stub; move it up to delay the whole handler"})
			out[id.Value] = e
		}
		return out
	}
	p.fields(v, w, map[string]func(k, v *yaml.Node){
		"data":        func(k, v *yaml.Node) { s.Data = p.dataMap(v, w+".data") },
		"error":       func(k, v *yaml.Node) { s.Error = p.str(v, w+".error") },
		"infra_error": func(k, v *yaml.Node) { s.InfraError = p.str(v, w+".infra_error") },
		"delay": func(k, v *yaml.Node) {
			// Upstream parses a stub's delay when the stub is called: a bad
			// one is that call's infra error, not a fixture that cannot run.
			raw := p.str(v, w+".delay")
			d, err := parseDuration(raw)
			if err != nil {
				p.warnf(v, ruleValue, "%s.delay: %v; every call of this stub fails with an infra error", w, err)
				s.DelayErr = fmt.Sprintf("stub %s: parse delay: %v", s.Name, err)
			}
			s.Delay = d
		},
		"request_clarification": func(k, v *yaml.Node) { s.RequestClarification = p.str(v, w+".request_clarification") },
		"by_call":               func(k, v *yaml.Node) { s.ByCall = envelopes(v, w+".by_call") },
		"by_op":                 func(k, v *yaml.Node) { s.ByOp = envelopes(v, w+".by_op") },
	}, nil)
	return s
}
