package flowtest

import (
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// Keys upstream reads to no effect, with the reason.
var (
	fixtureIgnored = map[string]string{
		"expect_outcome":     "upstream documents it but never reads it; assert the state with expect_state or expect_terminal",
		"expect_final_state": "upstream documents it but never reads it; use expect_state on the last turn",
	}
	turnIgnored = map[string]string{
		"expect_world_final": "it is a fixture-level key; at turn level upstream ignores it (move it to the top level, or use expect_world)",
		"expect_terminal":    "it is a fixture-level key; at turn level upstream ignores it (move it to the top level)",
		"then":               "upstream has no such turn key",
	}
	hostCallIgnored = map[string]string{"id": "upstream matches calls by handler and args only; put the effect id under args: {call: ID}"}
	envelopeIgnored = map[string]string{"delay": "upstream reads delay only at the top level of a stub; move it up to delay the whole handler"}
)

// fixture reads one flow document's keys (flow-format.md §2).
func (p *parser) fixture(root *yaml.Node) *Fixture {
	fx := &Fixture{Pos: p.pos(root)}
	var mode *yaml.Node
	fx.keys = p.fields(root, "fixture", fixtureIgnored, p.fixtureFields(fx, &mode))
	if mode != nil && !slices.Contains([]string{"", "one-shot", "oneshot", "staged"}, fx.Mode) {
		if fx.Orchestrated() {
			p.errf(mode, ruleValue, "mode: invalid mode %q (want \"staged\" or \"one-shot\")", fx.Mode)
		} else {
			p.warnf(mode, ruleValue, "mode: invalid mode %q is ignored on the legacy path (want \"staged\" or \"one-shot\", or remove it)", fx.Mode)
		}
	}
	if fx.Orchestrated() {
		// upstream logs these as JSON, and its run stops on a number JSON cannot hold
		p.finiteKVs(fx.InitialWorld, "initial_world")
		for _, t := range fx.Turns {
			p.finiteKVs(t.WorldOverride, fmt.Sprintf("turns[%d].world_override", t.Index))
			if t.Intent == nil {
				continue
			}
			for _, kv := range t.Intent.Slots {
				if jsonvalue.HasNonFinite(kv.Value) {
					// docs/compat/flow-format.md §3.1
					p.add(kv.Pos, diag.Warning, ruleValue, "turns[%d].intent.slots.%s: holds an infinite or NaN number (.inf, .nan): the existing engine cannot log this turn's transition, so the session stays in the state the turn started in (kitsoki follows it); write it as text (\".inf\") or use a finite number", t.Index, kv.Key)
				}
			}
		}
	} else {
		for _, t := range fx.Turns {
			if t.Intent == nil && !t.HasInput && t.HasAdvance {
				p.add(t.at("advance_clock"), diag.Error, ruleShape, "turns[%d]: advance_clock: without intent: or input: needs the orchestrator path, and use_orchestrator: false puts this fixture on the legacy path, which has no clock (give the turn an intent:, or remove use_orchestrator: false)", t.Index)
			}
		}
	}
	if fx.HostCassette != "" && len(fx.HostHandlers) > 0 {
		at := root
		if k := keyNode(root, "host_cassette"); k != nil {
			at = k
		}
		p.errf(at, ruleShape, "host_cassette and host_handlers are mutually exclusive; answer every handler from the cassette, or stub them all")
	}
	return fx
}

// finiteKVs refuses an infinite or NaN number anywhere in kvs' values.
func (p *parser) finiteKVs(kvs []KV, where string) {
	for _, kv := range kvs {
		if jsonvalue.HasNonFinite(kv.Value) {
			p.add(kv.Pos, diag.Error, ruleValue, "%s.%s: holds an infinite or NaN number (.inf, .nan), which the existing engine's orchestrator path cannot write to its log (its run stops there); write it as text (\".inf\") or use a finite number", where, kv.Key)
		}
	}
}

func (p *parser) fixtureFields(fx *Fixture, mode **yaml.Node) yamlnode.Fields {
	return yamlnode.Fields{
		{Key: "test_kind"}, // read by readDoc
		{Key: "app", Read: into(&fx.App, p.str, "")},
		{Key: "initial_state", Read: into(&fx.InitialState, p.str, "")},
		{Key: "initial_world", Read: into(&fx.InitialWorld, p.kvs, "")},
		{Key: "turns", Read: func(k, v *yaml.Node) {
			if v = p.node(v, yaml.SequenceNode, "turns", "a list of turns"); v == nil {
				return
			}
			if n := len(v.Content); n > maxFixtureTurns {
				p.errf(k, ruleValue, "turns: %d turns, more than the %d-turn limit of one fixture; split it into several fixtures (each starting where the last one ends: initial_state, initial_world)", n, maxFixtureTurns)
				return
			} else if n > p.turnsLeft {
				p.errf(k, ruleValue, "turns: this fixture brings the file to %d turns, more than the %d-turn limit of one fixture file; split the file into several files", maxFileTurns-p.turnsLeft+n, maxFileTurns)
				return
			}
			for i, t := range v.Content {
				fx.Turns = append(fx.Turns, p.turn(yamlnode.Deref(t), i))
			}
		}},
		{Key: "expect_no_errors", Read: intoPtr(&fx.ExpectNoErrors, p.boolean, "")},
		{Key: "expect_terminal", Read: intoPtr(&fx.ExpectTerminal, p.boolean, "")},
		{Key: "host_handlers", Read: func(_, v *yaml.Node) {
			if v = p.node(v, yaml.MappingNode, "host_handlers", "a mapping of handler name to stub"); v == nil {
				return
			}
			for _, q := range p.entries(v, "host_handlers") {
				s := p.stub(q.k, yamlnode.Deref(q.v))
				// a handler given twice through a merge key: the later stub is read
				if i := slices.IndexFunc(fx.HostHandlers, func(o *Stub) bool { return o.Name == s.Name }); i >= 0 {
					fx.HostHandlers[i] = s
					continue
				}
				fx.HostHandlers = append(fx.HostHandlers, s)
			}
		}},
		{Key: "host_cassette", Read: into(&fx.HostCassette, p.str, "")},
		{Key: "starlark_http_cassette", Read: into(&fx.StarlarkHTTPCassette, p.str, "")},
		{Key: "starlark_inspect_cassette", Read: into(&fx.StarlarkInspectCassette, p.str, "")},
		{Key: "host_bindings", Read: func(_, v *yaml.Node) { fx.HostBindings = p.hostBindings(v) }},
		{Key: "expect_no_host_calls", Read: into(&fx.ExpectNoHostCalls, p.strList, "")},
		{Key: "recording", Read: into(&fx.Recording, p.str, "")},
		{Key: "use_orchestrator", Read: intoPtr(&fx.UseOrchestrator, p.boolean, "")},
		{Key: "strict_cassette_coverage", Read: into(&fx.StrictCassetteCoverage, p.boolean, "")},
		{Key: "mode", Read: func(_, v *yaml.Node) { fx.Mode, *mode = p.str(v, "mode"), v }},
		{Key: "expect_events_count_atleast", Read: intoPtr(&fx.ExpectEventsAtLeast, p.integer, "")},
		{Key: "expect_events_count_atmost", Read: intoPtr(&fx.ExpectEventsAtMost, p.integer, "")},
		{Key: "expect_world_final", Read: into(&fx.ExpectWorldFinal, p.kvs, "")},
		{Key: "expect_files", Read: into(&fx.ExpectFiles, items(p, "{path, content_matches?, must_not_exist?}", record(p, nil, p.fileExpectFields)), "")},
	}
}

// hostBindings reads host_bindings: handler names by binding (a scalar taken as its text,
// null as "", as upstream; emptyBinding decides what that means).
func (p *parser) hostBindings(v *yaml.Node) []KV {
	var out []KV
	for _, kv := range p.kvs(v, "host_bindings") {
		switch val := kv.Value.(type) {
		case string:
		case nil:
			kv.Value = ""
		case map[string]any, []any:
			p.errf(v, ruleShape, "host_bindings.%s: expected a handler name (string)", kv.Key)
			continue
		default:
			kv.Value = fmt.Sprint(val)
		}
		out = append(out, kv)
	}
	return out
}

func (p *parser) fileExpectFields(fe *FileExpect, w string) yamlnode.Fields {
	return yamlnode.Fields{
		{Key: "path", Read: into(&fe.Path, p.str, w)},
		{Key: "content_matches", Read: into(&fe.ContentMatches, p.str, w)},
		{Key: "must_not_exist", Read: into(&fe.MustNotExist, p.boolean, w)},
	}
}

// turn reads one turns: entry (flow-format.md §3).
func (p *parser) turn(n *yaml.Node, i int) *Turn {
	t := &Turn{Index: i, Pos: p.pos(n)}
	w := yamlnode.Indexed("turns", i)
	t.keys = p.fields(n, w, turnIgnored, p.turnFields(t, w))
	if t.Intent == nil && !t.HasInput && !t.HasAdvance {
		p.errf(n, ruleShape, "%s: a turn needs one of intent:, input: or advance_clock: (an empty input: or advance_clock: counts as none)", w)
	}
	return t
}

func (p *parser) turnFields(t *Turn, w string) yamlnode.Fields {
	events := items(p, "{kind, from?, to?, effect?}", record(p, nil, p.eventFields))
	return yamlnode.Fields{
		{Key: "intent", Read: func(_, v *yaml.Node) { t.Intent = p.intentSpec(v, w) }},
		// an empty input: or advance_clock: is the key left out, as upstream
		{Key: "input", Read: func(_, v *yaml.Node) {
			t.Input = p.str(v, w+".input")
			t.HasInput = t.Input != ""
		}},
		{Key: "advance_clock", Read: func(_, v *yaml.Node) {
			s, ok := p.duration(v, w+".advance_clock")
			t.AdvanceRaw, t.HasAdvance = s, s != ""
			if ok {
				// a negative advance moves nothing, as 0 (upstream: no
				// advance, no drain); kept at 0 so the lints' sums of
				// advances never wrap
				t.AdvanceClock, _ = parseDuration(s)
				t.AdvanceClock = max(t.AdvanceClock, 0)
			}
		}},
		{Key: "display_input", Read: into(&t.DisplayInput, p.str, w)},
		{Key: "world_override", Read: into(&t.WorldOverride, p.kvs, w)},
		{Key: "expect_state", Read: intoPtr(&t.ExpectState, p.str, w)},
		{Key: "expect_not_state", Read: intoPtr(&t.ExpectNotState, p.str, w)},
		{Key: "expect_state_in", Read: into(&t.ExpectStateIn, p.strList, w)},
		{Key: "expect_world", Read: into(&t.ExpectWorld, p.kvs, w)},
		{Key: "expect_world_full", Read: func(_, v *yaml.Node) {
			t.ExpectWorldFull = p.kvs(v, w+".expect_world_full")
			t.HasWorldFull = len(t.ExpectWorldFull) > 0
		}},
		{Key: "expect_world_unchanged", Read: into(&t.ExpectWorldUnchanged, p.boolean, w)},
		{Key: "expect_slots", Read: into(&t.ExpectSlots, p.kvs, w)},
		{Key: "expect_events", Read: into(&t.ExpectEvents, events, w)},
		{Key: "expect_events_exact", Read: func(_, v *yaml.Node) {
			t.ExpectEventsExact = events(v, w+".expect_events_exact")
			t.HasEventsExact = len(t.ExpectEventsExact) > 0
		}},
		{Key: "expect_error", Read: into(&t.ExpectError, record(p, nil, p.errorExpectFields), w)},
		{Key: "expect_view_matches", Read: intoPtr(&t.ExpectViewMatches, p.str, w)},
		{Key: "expect_no_view", Read: into(&t.ExpectNoView, p.boolean, w)},
		{Key: "expect_host_calls", Read: into(&t.ExpectHostCalls, items(p, "{handler, args?, times?}", record(p, hostCallIgnored, p.hostCallFields)), w)},
		{Key: "expect_no_host_calls", Read: into(&t.ExpectNoHostCalls, p.strList, w)},
		{Key: "expect_inbox", Read: into(&t.ExpectInbox, record(p, nil, p.inboxFields), w)},
		// an empty expect_jobs list expects no job
		{Key: "expect_jobs", Read: into(&t.ExpectJobs, items(p, "{namespace, status}", record(p, nil, p.jobFields)), w)},
	}
}

// intentSpec reads a turn's intent: a name, or {name, slots}.
func (p *parser) intentSpec(v *yaml.Node, w string) *IntentSpec {
	is := &IntentSpec{Pos: p.pos(v)}
	if v.Kind == yaml.ScalarNode {
		is.Name, is.Bare = p.str(v, w+".intent"), true
	} else {
		p.fields(v, w+".intent", nil, p.intentFields(is, w+".intent"))
	}
	if is.Name == "" {
		p.warnf(v, ruleShape, "%s.intent: no name: the turn fires an empty intent, which every state rejects (intent: {name: NAME, slots: {...}})", w)
	}
	return is
}

func (p *parser) intentFields(is *IntentSpec, w string) yamlnode.Fields {
	return yamlnode.Fields{
		{Key: "name", Read: func(_, v *yaml.Node) { is.Name, is.Pos = p.str(v, w+".name"), p.pos(v) }},
		{Key: "slots", Read: into(&is.Slots, p.kvs, w)},
	}
}

func (p *parser) errorExpectFields(ee *ErrorExpect, where string) yamlnode.Fields {
	return yamlnode.Fields{
		{Key: "code", Read: into(&ee.Code, p.str, where)},
		{Key: "allowed_contains", Read: into(&ee.AllowedContains, p.strList, where)},
		{Key: "missing_slots", Read: into(&ee.MissingSlots, p.strList, where)},
		{Key: "guard_hint", Read: into(&ee.GuardHint, p.str, where)},
	}
}

func (p *parser) hostCallFields(hc *HostCallExpect, ww string) yamlnode.Fields {
	return yamlnode.Fields{
		{Key: "handler", Read: into(&hc.Handler, p.str, ww)},
		{Key: "args", Read: into(&hc.Args, p.kvs, ww)},
		{Key: "times", Read: intoPtr(&hc.Times, p.integer, ww)},
	}
}

func (p *parser) inboxFields(ie *InboxExpect, where string) yamlnode.Fields {
	return yamlnode.Fields{
		{Key: "unread", Read: intoPtr(&ie.Unread, p.integer, where)},
		{Key: "needs_attention", Read: intoPtr(&ie.NeedsAttention, p.integer, where)},
		{Key: "severities", Read: into(&ie.Severities, p.strList, where)},
	}
}

func (p *parser) jobFields(je *JobExpect, ww string) yamlnode.Fields {
	return yamlnode.Fields{
		{Key: "namespace", Read: into(&je.Namespace, p.str, ww)},
		{Key: "status", Read: into(&je.Status, p.str, ww)},
	}
}

// placed is a pointer to a fixture part that records where it starts.
type placed[T any] interface {
	*T
	place() *Pos
}

func (e *ErrorExpect) place() *Pos    { return &e.Pos }
func (e *HostCallExpect) place() *Pos { return &e.Pos }
func (e *InboxExpect) place() *Pos    { return &e.Pos }
func (e *JobExpect) place() *Pos      { return &e.Pos }
func (e *EventExpect) place() *Pos    { return &e.Pos }
func (e *FileExpect) place() *Pos     { return &e.Pos }

// record is the reader of a mapping (where is its place) into a new T at
// its position, through the table fields makes for it; ignored: the keys
// upstream reads to no effect.
func record[T any, PT placed[T]](p *parser, ignored map[string]string, fields func(PT, string) yamlnode.Fields) func(v *yaml.Node, where string) PT {
	return func(v *yaml.Node, where string) PT {
		t := PT(new(T))
		*t.place() = p.pos(v)
		p.fields(v, where, ignored, fields(t, where))
		return t
	}
}

// items is the reader of a list (where is its place) whose entries read
// reads (an empty list: empty, non-nil); anything else is an error naming
// want, and nil.
func items[T any](p *parser, want string, read func(c *yaml.Node, w string) *T) func(v *yaml.Node, where string) []T {
	return func(v *yaml.Node, where string) []T {
		if v.Kind != yaml.SequenceNode {
			p.errf(v, ruleShape, "%s: expected a list of %s", where, want)
			return nil
		}
		out := make([]T, 0, len(v.Content))
		for j, c := range v.Content {
			w := yamlnode.Indexed(where, j)
			if c = yamlnode.Deref(c); yamlnode.IsNull(c) {
				p.warnf(c, ruleShape, "%s: null is read as an entry with no keys, as the existing engine does, and it never passes (write %s, or remove it)", w, want)
				c = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: c.Line, Column: c.Column}
			}
			out = append(out, *read(c, w))
		}
		return out
	}
}

func (p *parser) eventFields(e *EventExpect, w string) yamlnode.Fields {
	return yamlnode.Fields{
		{Key: "kind", Read: into(&e.Kind, p.str, w)},
		{Key: "from", Read: into(&e.From, p.str, w)},
		{Key: "to", Read: into(&e.To, p.str, w)},
		{Key: "effect", Read: into(&e.Effect, p.kvs, w)},
	}
}

// stub reads one host_handlers entry (flow-format.md §4.1).
func (p *parser) stub(k, v *yaml.Node) *Stub {
	s := &Stub{Name: k.Value, Pos: p.pos(k)}
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" {
		return s
	}
	p.fields(v, "host_handlers."+k.Value, nil, p.stubFields(s, "host_handlers."+k.Value))
	return s
}

func (p *parser) stubFields(s *Stub, w string) yamlnode.Fields {
	return yamlnode.Fields{
		{Key: "data", Read: into(&s.Data, p.dataMap, w)},
		{Key: "error", Read: into(&s.Error, p.str, w)},
		{Key: "infra_error", Read: into(&s.InfraError, p.str, w)},
		{Key: "delay", Read: func(_, v *yaml.Node) {
			// upstream parses it at each call: a bad one is that call's
			// infra error (conformance host-stub-delay-errors)
			text := p.str(v, w+".delay")
			d, err := parseDuration(text)
			if err != nil {
				p.warnf(v, ruleValue, "%s.delay: %v; every call of this stub fails with an infra error", w, err)
				s.DelayErr = fmt.Sprintf("stub %s: parse delay: %s", s.Name, delayErrorText(text, err))
			}
			p.warnNaNDays(v, w+".delay", text)
			s.Delay = d
		}},
		{Key: "request_clarification", Read: into(&s.RequestClarification, p.str, w)},
		{Key: "by_call", Read: into(&s.ByCall, p.envelopes, w)},
		{Key: "by_op", Read: into(&s.ByOp, p.envelopes, w)},
	}
}

// envelopes reads a stub's by_call or by_op: id -> {data, error, infra_error}.
func (p *parser) envelopes(v *yaml.Node, where string) map[string]*Envelope {
	out := map[string]*Envelope{}
	if v.Kind != yaml.MappingNode {
		p.errf(v, ruleShape, "%s: expected a mapping of id to {data, error, infra_error}", where)
		return out
	}
	for _, q := range p.entries(v, where) {
		id, ev := q.k, yamlnode.Deref(q.v)
		key := p.scalarText(id, where+" key") // 0x10 is the call id "16", as upstream reads it
		e := &Envelope{Pos: p.pos(id)}
		if yamlnode.IsNull(ev) {
			p.warnf(ev, ruleShape, "%s.%s: null is read as an empty answer (no data, no error), as the existing engine does (write {} or give it data:)", where, id.Value)
		} else {
			p.fields(ev, where+"."+id.Value, envelopeIgnored, p.envelopeFields(e, where+"."+id.Value))
		}
		out[key] = e
	}
	return out
}

func (p *parser) envelopeFields(e *Envelope, w string) yamlnode.Fields {
	return yamlnode.Fields{
		{Key: "data", Read: into(&e.Data, p.dataMap, w)},
		{Key: "error", Read: into(&e.Error, p.str, w)},
		{Key: "infra_error", Read: into(&e.InfraError, p.str, w)},
	}
}
