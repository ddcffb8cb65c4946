package flowtest

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// savedStub is a saved host_handlers entry: one answer, or one per call id.
type savedStub struct {
	Name   string
	Top    *answer
	ByCall map[string]answer
}

// planStubs turns the run's calls into stubs; false when a call site
// answered differently, which only a cassette replays.
func planStubs(calls []call) (stubs []savedStub, ok bool) {
	byNS := map[string][]call{}
	for _, c := range calls {
		byNS[c.Namespace] = append(byNS[c.Namespace], c)
	}
	for _, ns := range slices.Sorted(maps.Keys(byNS)) {
		cs := byNS[ns]
		if !slices.ContainsFunc(cs, func(c call) bool { return !c.Answer.equal(cs[0].Answer) }) { // one answer for all
			a := cs[0].Answer
			stubs = append(stubs, savedStub{Name: ns, Top: &a})
			continue
		}
		by := map[string]answer{}
		for _, c := range cs {
			if c.ID == "" {
				return nil, false
			}
			if prev, seen := by[c.ID]; seen && !prev.equal(c.Answer) {
				return nil, false
			}
			by[c.ID] = c.Answer
		}
		stubs = append(stubs, savedStub{Name: ns, ByCall: by})
	}
	return stubs, true
}

// savedTurn is one turn of a saved fixture.
type savedTurn struct {
	Intent      string
	Slots       map[string]any
	Advance     time.Duration // 0: none
	ExpectState string
	ExpectWorld map[string]any // nil: no expect_world
}

// savedFixture is the document SaveFixture writes.
type savedFixture struct {
	Header       []string // comment lines
	App          string
	InitialState string
	InitialWorld map[string]any
	Stubs        []savedStub
	HostCassette string
	Turns        []savedTurn
	Terminal     bool
}

// marshal writes the fixture as YAML, keys in the order a person writes them.
func (f *savedFixture) marshal() ([]byte, error) {
	doc := mapping()
	add(doc, "test_kind", scalar("flow"))
	add(doc, "app", scalar(f.App))
	add(doc, "use_orchestrator", boolean(true))
	add(doc, "initial_state", scalar(f.InitialState))
	if len(f.InitialWorld) > 0 {
		add(doc, "initial_world", value(f.InitialWorld))
	}
	if f.HostCassette != "" {
		add(doc, "host_cassette", scalar(f.HostCassette))
	}
	if len(f.Stubs) > 0 {
		hh := mapping()
		for _, s := range f.Stubs {
			hh.Content = append(hh.Content, scalar(s.Name), stubNode(s))
		}
		add(doc, "host_handlers", hh)
	}
	turns := &yaml.Node{Kind: yaml.SequenceNode}
	for _, t := range f.Turns {
		tn := mapping()
		in := mapping()
		in.Style = yaml.FlowStyle
		add(in, "name", scalar(t.Intent))
		slots := value(t.Slots)
		if t.Slots == nil {
			slots = mapping()
		}
		add(in, "slots", slots)
		add(tn, "intent", in)
		if t.Advance > 0 {
			add(tn, "advance_clock", scalar(t.Advance.String()))
		}
		add(tn, "expect_state", scalar(t.ExpectState))
		if len(t.ExpectWorld) > 0 {
			add(tn, "expect_world", value(t.ExpectWorld))
		}
		turns.Content = append(turns.Content, tn)
	}
	add(doc, "turns", turns)
	add(doc, "expect_no_errors", boolean(true))
	if f.Terminal {
		add(doc, "expect_terminal", boolean(true))
	}
	if len(f.Header) > 0 {
		doc.HeadComment = "# " + strings.Join(f.Header, "\n# ")
	}
	return encodeYAML(doc)
}

func stubNode(s savedStub) *yaml.Node {
	if s.Top != nil {
		return envelopeNode(*s.Top)
	}
	by := mapping()
	for _, id := range slices.Sorted(maps.Keys(s.ByCall)) {
		by.Content = append(by.Content, scalar(id), envelopeNode(s.ByCall[id]))
	}
	n := mapping()
	add(n, "by_call", by)
	return n
}

func envelopeNode(a answer) *yaml.Node {
	n := mapping()
	if a.Data != nil {
		add(n, "data", value(a.Data))
	}
	if a.Error != "" {
		add(n, "error", scalar(a.Error))
	}
	if a.InfraError != "" {
		add(n, "infra_error", scalar(a.InfraError))
	}
	if len(n.Content) == 0 {
		add(n, "data", mapping())
	}
	return n
}

// cassetteYAML is a host cassette replaying calls in order, one episode each.
func cassetteYAML(appID string, calls []call) ([]byte, error) {
	doc := mapping()
	doc.HeadComment = "# Saved by kitsoki run --save-fixture: the run's host and agent answers, in call order."
	add(doc, "kind", scalar("host_cassette"))
	add(doc, "app_id", scalar(appID))
	eps := &yaml.Node{Kind: yaml.SequenceNode}
	for i, c := range calls {
		ep := mapping()
		add(ep, "id", scalar(fmt.Sprintf("call-%d", i+1)))
		m := mapping()
		add(m, "handler", scalar(c.Namespace))
		if c.ID != "" {
			add(m, "call", scalar(c.ID))
		}
		add(ep, "match", m)
		add(ep, "response", envelopeNode(c.Answer))
		eps.Content = append(eps.Content, ep)
	}
	add(doc, "episodes", eps)
	return encodeYAML(doc)
}

// encodeYAML is v as a YAML document indented by two spaces.
func encodeYAML(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func scalar(s string) *yaml.Node {
	n := &yaml.Node{}
	_ = n.Encode(s) // a string that reads as another type is quoted
	return n
}

func boolean(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(b)}
}

// value is v (JSON shapes) as a node, maps with sorted keys.
func value(v any) *yaml.Node {
	n := &yaml.Node{}
	if err := n.Encode(v); err != nil {
		return scalar(fmt.Sprint(v))
	}
	return n
}

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, scalar(key), v)
}
