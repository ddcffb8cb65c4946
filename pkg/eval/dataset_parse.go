package eval

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// parseDataset parses data as the dataset at name; shown names the file in
// errors (the path as the user gave it).
func parseDataset(name, shown string, data []byte) (*Dataset, error) {
	var doc yaml.Node // stays empty (Kind 0) on io.EOF: a file with no document
	// "\/" reads as "/", as upstream (yamlnode.MaskSlashEscapes)
	masked, isMasked := yamlnode.MaskSlashEscapes(data)
	if err := yaml.NewDecoder(bytes.NewReader(masked)).Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, syntaxErrorf("%s: parse YAML: %s (fix the YAML syntax)", shown, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if isMasked {
		yamlnode.UnmaskSlashEscapes(&doc)
	}
	// an example's args and expect are decoded and encoded as JSON, each
	// alias repeating its anchor's text, as a fixture file's are bounded
	if at := yamlnode.AliasTextFileOver(&doc); at != nil {
		return nil, syntaxErrorf("%s:%d:%d: %s", shown, at.Line, at.Column, yamlnode.AliasTextMsg("dataset", "split the examples into several datasets"))
	}
	d := &Dataset{Path: name, Raw: data, pos: map[string]story.Pos{}}
	p := &dparser{d: d}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		if root.Kind == 0 {
			return nil, syntaxErrorf("%s: empty file (a dataset starts with kind: agent_eval)", shown)
		}
		return nil, syntaxErrorf("%s:%d:%d: a dataset must be a YAML mapping (kind: agent_eval, app:, call:, ...)", shown, root.Line, root.Column)
	}
	p.top(root)
	return d, nil
}

type dparser struct{ d *Dataset }

func (p *dparser) at(n *yaml.Node) story.Pos {
	return yamlnode.At(p.d.Path, n)
}

func (p *dparser) errf(n *yaml.Node, format string, a ...any)  { p.add(diag.Error, n, format, a...) }
func (p *dparser) warnf(n *yaml.Node, format string, a ...any) { p.add(diag.Warning, n, format, a...) }

func (p *dparser) add(sev diag.Severity, n *yaml.Node, format string, a ...any) {
	p.d.Findings = append(p.d.Findings, Finding{Pos: p.at(n), Severity: sev, Message: diag.ClipMessage(fmt.Sprintf(format, a...))})
}

// each walks a mapping's pairs, recording positions under prefix, reading
// each key through fs and warning on unknown and repeated keys (the later
// is read, as upstream). With fs nil every key goes to anyKey.
func (p *dparser) each(n *yaml.Node, prefix string, fs yamlnode.Fields, anyKey func(key string, v *yaml.Node)) {
	n = yamlnode.Deref(n)
	if n.Kind != yaml.MappingNode {
		if yamlnode.IsNull(n) {
			return
		}
		p.errf(n, "%s must be a mapping", prefix)
		return
	}
	seen, where := yamlnode.NewSeen(n), cmp.Or(prefix, "the dataset")
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], yamlnode.Deref(n.Content[i+1])
		key := k.Value
		if prev := seen.Prev(i, key); prev != nil {
			p.warnf(k, "key %q in %s appears twice (first at line %d); the later one is used (keep one)", key, where, prev.Line)
		}
		path := key
		if prefix != "" {
			path = prefix + "." + key
		}
		p.d.pos[path] = p.at(v)
		if fs == nil {
			anyKey(key, v)
		} else if f := fs.Find(key); f == nil {
			p.warnf(k, "unknown key %q in %s (ignored)", key, where)
		} else if f.Read != nil {
			f.Read(k, v)
		}
	}
}

func (p *dparser) str(v *yaml.Node, what string) string {
	if yamlnode.IsNull(v) {
		return ""
	}
	if v.Kind != yaml.ScalarNode {
		p.errf(v, "%s must be a string", what)
		return ""
	}
	return v.Value
}

// seq walks the list v, recording each item's position under what[i];
// false for null or another kind.
func (p *dparser) seq(v *yaml.Node, what, wantList string, item func(key string, c *yaml.Node)) bool {
	if yamlnode.IsNull(v) {
		return false
	}
	if v.Kind != yaml.SequenceNode {
		p.errf(v, "%s must be %s", what, wantList)
		return false
	}
	for i, c := range v.Content {
		c = yamlnode.Deref(c)
		key := yamlnode.Indexed(what, i)
		p.d.pos[key] = p.at(c)
		item(key, c)
	}
	return true
}

func (p *dparser) strList(v *yaml.Node, what string) []string {
	out := []string{}
	if !p.seq(v, what, "a list of strings", func(key string, c *yaml.Node) { out = append(out, p.str(c, key)) }) {
		return nil
	}
	return out
}

func (p *dparser) integer(v *yaml.Node, what string) (int64, bool) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!int" {
		n, err := strconv.ParseInt(v.Value, 0, 64)
		if err == nil {
			return n, true
		}
	}
	p.errf(v, "%s must be an integer, got %q", what, v.Value)
	return 0, false
}

func (p *dparser) number(v *yaml.Node, what string) (float64, bool) {
	if v.Kind == yaml.ScalarNode && (v.Tag == "!!int" || v.Tag == "!!float") {
		var f float64
		if err := v.Decode(&f); err == nil {
			return f, true
		}
	}
	p.errf(v, "%s must be a number, got %q", what, v.Value)
	return 0, false
}

func (p *dparser) boolean(v *yaml.Node, what string) (bool, bool) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!bool" {
		var b bool
		if err := v.Decode(&b); err == nil {
			return b, true
		}
	}
	p.errf(v, "%s must be true or false, got %q", what, v.Value)
	return false, false
}

// object decodes a mapping into plain JSON values (a JSON round trip:
// numbers become float64, keys strings).
func (p *dparser) object(v *yaml.Node, what string) map[string]any {
	if yamlnode.IsNull(v) {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		p.errf(v, "%s must be a mapping", what)
		return nil
	}
	yamlnode.TextPointlessFloats(v)
	var raw any
	if err := v.Decode(&raw); err != nil {
		p.errf(v, "%s: %v", what, err)
		return nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		p.errf(v, "%s: not representable as JSON: %v", what, err)
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		p.errf(v, "%s: not a JSON object: %v", what, err)
		return nil
	}
	return m
}

// optional is a field reader of an optional value into *dst, read by
// read (left nil when the value is refused), named what.
func optional[T any](dst **T, read func(v *yaml.Node, what string) (T, bool), what string) func(k, v *yaml.Node) {
	return func(_, v *yaml.Node) {
		if x, ok := read(v, what); ok {
			*dst = &x
		}
	}
}

// strTo is a field reader of a string into *dst, named what.
func (p *dparser) strTo(dst *string, what string) func(k, v *yaml.Node) {
	return func(_, v *yaml.Node) { *dst = p.str(v, what) }
}

func (p *dparser) top(root *yaml.Node) {
	d := p.d
	p.each(root, "", yamlnode.Fields{
		{Key: "kind", Read: p.strTo(&d.Kind, "kind")},
		{Key: "app", Read: p.strTo(&d.App, "app")},
		{Key: "call", Read: p.strTo(&d.Call, "call")},
		{Key: "agent", Read: p.strTo(&d.Agent, "agent")},
		{Key: "task", Read: func(_, v *yaml.Node) { p.task(v) }},
		{Key: "matrix", Read: func(_, v *yaml.Node) { p.matrix(v) }},
		{Key: "comparator", Read: func(_, v *yaml.Node) { p.comparator(v) }},
		{Key: "examples", Read: func(_, v *yaml.Node) { p.examples(v) }},
		{Key: "selection", Read: func(_, v *yaml.Node) { p.selection(v) }},
		{Key: "description"},
		{Key: "notes"},
	}, nil)
}

func (p *dparser) task(n *yaml.Node) {
	t := &p.d.Task
	p.each(n, "task", yamlnode.Fields{
		{Key: "goal", Read: p.strTo(&t.Goal, "task.goal")},
		{Key: "boundedness", Read: func(_, v *yaml.Node) {
			b := &Boundedness{}
			t.Boundedness = b
			p.each(v, "task.boundedness", yamlnode.Fields{
				{Key: "max_turns", Read: func(_, v *yaml.Node) {
					if n, ok := p.integer(v, "task.boundedness.max_turns"); ok {
						i := int(n)
						b.MaxTurns = &i
					}
				}},
				{Key: "tool_policy", Read: p.strTo(&b.ToolPolicy, "task.boundedness.tool_policy")},
				{Key: "prepared_context", Read: optional(&b.PreparedContext, p.boolean, "task.boundedness.prepared_context")},
			}, nil)
		}},
		{Key: "adherence_bar", Read: func(_, v *yaml.Node) {
			a := &AdherenceBar{}
			t.AdherenceBar = a
			p.each(v, "task.adherence_bar", yamlnode.Fields{
				{Key: "min_pass_rate", Read: func(_, v *yaml.Node) { a.MinPassRate, _ = p.number(v, "task.adherence_bar.min_pass_rate") }},
				{Key: "max_p95_latency_ms", Read: optional(&a.MaxP95LatencyMS, p.integer, "task.adherence_bar.max_p95_latency_ms")},
				{Key: "max_avg_cost_usd", Read: optional(&a.MaxAvgCostUSD, p.number, "task.adherence_bar.max_avg_cost_usd")},
				{Key: "min_pass_k_rate", Read: optional(&a.MinPassKRate, p.number, "task.adherence_bar.min_pass_k_rate")},
			}, nil)
		}},
	}, nil)
}

func (p *dparser) matrix(n *yaml.Node) {
	m := &p.d.Matrix
	p.each(n, "matrix", yamlnode.Fields{
		{Key: "profiles", Read: func(_, v *yaml.Node) { m.Profiles = p.strList(v, "matrix.profiles") }},
		{Key: "models", Read: func(_, v *yaml.Node) {
			m.Models = map[string][]string{}
			p.each(v, "matrix.models", nil, func(prof string, v *yaml.Node) {
				m.Models[prof] = p.strList(v, "matrix.models."+prof)
			})
		}},
		{Key: "effort", Read: func(_, v *yaml.Node) {
			if v.Kind == yaml.ScalarNode && !yamlnode.IsNull(v) {
				m.Effort = []string{v.Value}
				return
			}
			m.Effort = p.strList(v, "matrix.effort")
		}},
		{Key: "cost_per_hour_usd", Read: func(_, v *yaml.Node) {
			m.CostPerHourUSD = map[string]float64{}
			p.each(v, "matrix.cost_per_hour_usd", nil, func(prof string, v *yaml.Node) {
				if f, ok := p.number(v, "matrix.cost_per_hour_usd."+prof); ok {
					m.CostPerHourUSD[prof] = f
				}
			})
		}},
		{Key: "repeat", Read: func(_, v *yaml.Node) {
			if n, ok := p.integer(v, "matrix.repeat"); ok {
				m.Repeat = int(n)
				if m.Repeat < 1 {
					p.errf(v, "matrix.repeat must be at least 1, got %d", n)
				}
			}
		}},
	}, nil)
}

func (p *dparser) comparator(n *yaml.Node) {
	c := &p.d.Comparator
	if n.Kind == yaml.ScalarNode {
		c.Kind = p.str(n, "comparator")
		return
	}
	p.each(n, "comparator", yamlnode.Fields{
		{Key: "kind", Read: p.strTo(&c.Kind, "comparator.kind")},
		{Key: "field", Read: p.strTo(&c.Field, "comparator.field")},
		{Key: "agent", Read: p.strTo(&c.Agent, "comparator.agent")},
		{Key: "prompt", Read: p.strTo(&c.Prompt, "comparator.prompt")},
	}, nil)
}

func (p *dparser) examples(n *yaml.Node) {
	p.seq(n, "examples", "a list of {name, args, expect}", func(pre string, c *yaml.Node) {
		ex := Example{Pos: p.d.pos[pre]}
		object := func(dst *map[string]any, what string) func(k, v *yaml.Node) {
			return func(_, v *yaml.Node) { *dst = p.object(v, pre+"."+what) }
		}
		p.each(c, pre, yamlnode.Fields{
			{Key: "name", Read: p.strTo(&ex.Name, pre+".name")},
			{Key: "args", Read: object(&ex.Args, "args")},
			{Key: "expect", Read: func(_, v *yaml.Node) {
				ex.Expect = p.object(v, pre+".expect")
				ex.expectNotObject = ex.Expect == nil && !yamlnode.IsNull(v)
			}},
			{Key: "actual", Read: object(&ex.Actual, "actual")},
			{Key: "description"},
			{Key: "notes"},
		}, nil)
		p.d.Examples = append(p.d.Examples, ex)
	})
}

func (p *dparser) selection(n *yaml.Node) {
	s := &DatasetSelection{}
	p.d.Selection = s
	p.each(n, "selection", yamlnode.Fields{
		{Key: "strategy", Read: p.strTo(&s.Strategy, "selection.strategy")},
		{Key: "pinned", Read: func(_, v *yaml.Node) {
			pin := &Pin{}
			s.Pinned = pin
			p.each(v, "selection.pinned", yamlnode.Fields{
				{Key: "profile", Read: p.strTo(&pin.Profile, "selection.pinned.profile")},
				{Key: "model", Read: p.strTo(&pin.Model, "selection.pinned.model")},
				{Key: "effort", Read: p.strTo(&pin.Effort, "selection.pinned.effort")},
				{Key: "evidence", Read: p.strTo(&pin.Evidence, "selection.pinned.evidence")},
				{Key: "fallback_profile", Read: p.strTo(&pin.FallbackProfile, "selection.pinned.fallback_profile")},
			}, nil)
		}},
	}, nil)
}
