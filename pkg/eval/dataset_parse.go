package eval

import (
	"cmp"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// upstreamDataset is what upstream's decoder reads of a dataset
// (docs/compat/trace-eval.md C.1): a repeat through a merged list or an
// alias key under any other key is no repeat to it.
type upstreamDataset struct {
	Kind, App, Call, Agent any
	Task                   struct {
		Goal         any
		Boundedness  map[string]any `yaml:"boundedness"`
		AdherenceBar map[string]any `yaml:"adherence_bar"`
	}
	Matrix struct {
		Profiles, Effort, Repeat any
		Models                   map[string]any `yaml:"models"`
	}
	Comparator any
	Examples   []struct {
		Name                 any
		Args, Expect, Actual map[string]any
	}
	Selection struct {
		Strategy any
		Pinned   map[string]any `yaml:"pinned"`
	}
}

// parseDataset parses data as the dataset at name; shown names the file in
// errors (the path as the user gave it).
func parseDataset(name, shown string, data []byte) (*Dataset, error) {
	return parseDatasetWithin(name, shown, data, yamlnode.MaxTreeNodes)
}

// parseDatasetWithin is parseDataset refusing a file of more than
// maxNodes YAML nodes at the node past them, before they are all built.
func parseDatasetWithin(name, shown string, data []byte, maxNodes int) (*Dataset, error) {
	// "\/" reads as "/", as upstream (yamlnode.MaskSlashEscapes)
	masked, isMasked := yamlnode.MaskSlashEscapes(data)
	parsed, over, err := yamlnode.Decode(masked, maxNodes)
	if over != nil {
		return nil, syntaxErrorf("%s:%d:%d: %s", shown, over.Line, over.Col, yamlnode.TreeNodesMsg("dataset", maxNodes, "split the examples into several datasets"))
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, refusedf("%s: parse YAML: %s (fix the YAML syntax)", shown, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var doc yaml.Node // stays empty (Kind 0) on io.EOF: a file with no document
	if parsed != nil {
		doc = *parsed
	}
	if isMasked {
		yamlnode.UnmaskSlashEscapes(&doc)
	}
	// an example's args and expect are decoded and encoded as JSON, each
	// alias repeating its anchor's text, as a fixture file's are bounded
	if at := yamlnode.AliasTextFileOver(&doc); at != nil {
		return nil, syntaxErrorf("%s:%d:%d: %s", shown, at.Line, at.Column, yamlnode.AliasTextMsg("dataset", "split the examples into several datasets"))
	}
	if k := yamlnode.ComplexKey(&doc); k != nil {
		return nil, refusedf("%s:%d:%d: %s", shown, k.Line, k.Column, yamlnode.ComplexKeyMsg("dataset"))
	}
	// upstream's parser refuses a key written twice in any mapping, and its
	// decoder one given twice through a merged list or an alias key where
	// it reads: the whole file (args and expect too) does not load
	if at, msg := yamlnode.RepeatedKey(&doc, reflect.TypeFor[upstreamDataset](), "dataset"); at != nil {
		return nil, refusedf("%s:%d:%d: %s", shown, at.Line, at.Column, msg)
	}
	d := &Dataset{Path: name, shown: shown, Raw: data, pos: map[string]story.Pos{}}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		if root.Kind == 0 {
			return nil, syntaxErrorf("%s: empty file (a dataset starts with kind: agent_eval)", shown)
		}
		return nil, refusedf("%s:%d:%d: a dataset must be a YAML mapping (kind: agent_eval, app:, call:, ...)", shown, root.Line, root.Column)
	}
	p := &dparser{d: d}
	p.Walker = yamlnode.NewWalker(name, len(data), &p.diags, datasetRules)
	p.top(root)
	if d.otherKind = otherKind(d.Kind, root); d.otherKind != "" {
		return d, nil // its keys are another format's: one finding says so (checkHeader)
	}
	for _, dg := range p.diags {
		d.Findings = append(d.Findings, Finding{Pos: story.Pos{File: dg.File, Line: dg.Line, Col: dg.Col}, Severity: dg.Severity, Message: diag.ClipMessage(dg.Message)})
	}
	return d, nil
}

// datasetRules: every finding of a dataset's walk is under the eval rule.
var datasetRules = &yamlnode.Rules{Syntax: ruleEval, Type: ruleEval, Duplicate: ruleEval, Unknown: ruleEval}

// dparser reads a dataset's nodes through the shared walker (node budget,
// recursive aliases, merge keys, repeated and unknown keys, type errors),
// recording where each key's value is (Dataset.PosOf).
type dparser struct {
	*yamlnode.Walker
	d     *Dataset
	diags []diag.Diagnostic
}

func (p *dparser) errf(n *yaml.Node, format string, a ...any) {
	p.Report(p.Pos(n), diag.Error, ruleEval, format, a...)
}

// deref is v with aliases followed; a null in place of a chain too long
// to follow.
func deref(v *yaml.Node) *yaml.Node {
	if d := yamlnode.Deref(v); d != nil {
		return d
	}
	null := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
	if v != nil {
		null.Line, null.Column = v.Line, v.Column
	}
	return null
}

// place names the mapping at the dotted path prefix in messages.
func place(prefix string) yamlnode.Place { return yamlnode.Place{Where: cmp.Or(prefix, "top level")} }

// dotted is key's path under prefix.
func dotted(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// fields reads the mapping n at the dotted path prefix through fs; unknown
// keys are warnings, and each known key's value position is recorded.
func (p *dparser) fields(n *yaml.Node, prefix string, fs yamlnode.Fields) {
	p.FieldsAt(n, place(prefix), yamlnode.Place{Where: prefix}, diag.Warning, fs, func(key string, _, v *yaml.Node) {
		p.d.pos[dotted(prefix, key)] = p.Pos(deref(v))
	})
}

// each reads every pair of the mapping n (any key) at the dotted path prefix.
func (p *dparser) each(n *yaml.Node, prefix string, fn func(key string, v *yaml.Node)) {
	p.MappingIn(n, place(prefix), nil, diag.Warning, func(key string, _, v *yaml.Node) {
		v = deref(v)
		p.d.pos[dotted(prefix, key)] = p.Pos(v)
		fn(key, v)
	})
}

// seq walks the list v, recording each item's position under what[i];
// false for null or another kind.
func (p *dparser) seq(v *yaml.Node, what string, item func(key string, c *yaml.Node)) bool {
	return p.SeqAt(v, yamlnode.Place{Where: what}, func(i int, c *yaml.Node) {
		c = deref(c)
		key := yamlnode.Indexed(what, i)
		p.d.pos[key] = p.Pos(c)
		item(key, c)
	})
}

// strList is a list of strings: empty (not nil) for [], nil for null or
// another kind.
func (p *dparser) strList(v *yaml.Node, what string) []string {
	out := []string{}
	if !p.seq(v, what, func(key string, c *yaml.Node) { out = append(out, p.Str(c, key)) }) {
		return nil
	}
	return out
}

func (p *dparser) integer(v *yaml.Node, what string) (int64, bool) {
	v = deref(v)
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
	return decodeScalar[float64](p, v, what, "a number", "!!int", "!!float")
}

func (p *dparser) boolean(v *yaml.Node, what string) (bool, bool) {
	return decodeScalar[bool](p, v, what, "true or false", "!!bool")
}

// decodeScalar decodes v, a scalar tagged one of tags, as a T; anything
// else is an error saying what must be want.
func decodeScalar[T any](p *dparser, v *yaml.Node, what, want string, tags ...string) (T, bool) {
	var x T
	if v = deref(v); v.Kind == yaml.ScalarNode && slices.Contains(tags, v.Tag) && v.Decode(&x) == nil {
		return x, true
	}
	p.errf(v, "%s must be %s, got %q", what, want, v.Value)
	return *new(T), false
}

// object decodes a mapping into plain JSON values (a JSON round trip:
// numbers become float64, keys strings).
func (p *dparser) object(v *yaml.Node, what string) map[string]any {
	v = deref(v)
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

func (p *dparser) top(root *yaml.Node) {
	d := p.d
	p.fields(root, "", yamlnode.Fields{
		{Key: "kind", Str: &d.Kind},
		{Key: "app", Str: &d.App},
		{Key: "call", Str: &d.Call},
		{Key: "agent", Str: &d.Agent},
		{Key: "task", Read: func(_, v *yaml.Node) { p.task(v) }},
		{Key: "matrix", Read: func(_, v *yaml.Node) { p.matrix(v) }},
		{Key: "comparator", Read: func(_, v *yaml.Node) { p.comparator(v) }},
		{Key: "examples", Read: func(_, v *yaml.Node) { p.examples(v) }},
		{Key: "selection", Read: func(_, v *yaml.Node) { p.selection(v) }},
		{Key: "description"},
		{Key: "notes"},
	})
}

func (p *dparser) task(n *yaml.Node) {
	t := &p.d.Task
	p.fields(n, "task", yamlnode.Fields{
		{Key: "goal", Str: &t.Goal},
		{Key: "boundedness", Read: func(_, v *yaml.Node) {
			b := &Boundedness{}
			t.Boundedness = b
			p.fields(v, "task.boundedness", yamlnode.Fields{
				{Key: "max_turns", Read: func(_, v *yaml.Node) {
					if n, ok := p.integer(v, "task.boundedness.max_turns"); ok {
						i := int(n)
						b.MaxTurns = &i
					}
				}},
				{Key: "tool_policy", Str: &b.ToolPolicy},
				{Key: "prepared_context", Read: optional(&b.PreparedContext, p.boolean, "task.boundedness.prepared_context")},
			})
		}},
		{Key: "adherence_bar", Read: func(_, v *yaml.Node) {
			a := &AdherenceBar{}
			t.AdherenceBar = a
			p.fields(v, "task.adherence_bar", yamlnode.Fields{
				{Key: "min_pass_rate", Read: func(_, v *yaml.Node) { a.MinPassRate, _ = p.number(v, "task.adherence_bar.min_pass_rate") }},
				{Key: "max_p95_latency_ms", Read: optional(&a.MaxP95LatencyMS, p.integer, "task.adherence_bar.max_p95_latency_ms")},
				{Key: "max_avg_cost_usd", Read: optional(&a.MaxAvgCostUSD, p.number, "task.adherence_bar.max_avg_cost_usd")},
				{Key: "min_pass_k_rate", Read: optional(&a.MinPassKRate, p.number, "task.adherence_bar.min_pass_k_rate")},
			})
		}},
	})
}

func (p *dparser) matrix(n *yaml.Node) {
	m := &p.d.Matrix
	p.fields(n, "matrix", yamlnode.Fields{
		{Key: "profiles", Read: func(_, v *yaml.Node) { m.Profiles = p.strList(v, "matrix.profiles") }},
		{Key: "models", Read: func(_, v *yaml.Node) {
			m.Models = map[string][]string{}
			p.each(v, "matrix.models", func(prof string, v *yaml.Node) {
				m.Models[prof] = p.strList(v, "matrix.models."+prof)
			})
		}},
		{Key: "effort", Read: func(_, v *yaml.Node) {
			if v = deref(v); v.Kind == yaml.ScalarNode && !yamlnode.IsNull(v) {
				m.Effort = []string{v.Value}
				return
			}
			m.Effort = p.strList(v, "matrix.effort")
		}},
		{Key: "cost_per_hour_usd", Read: func(_, v *yaml.Node) {
			m.CostPerHourUSD = map[string]float64{}
			p.each(v, "matrix.cost_per_hour_usd", func(prof string, v *yaml.Node) {
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
	})
}

func (p *dparser) comparator(n *yaml.Node) {
	c := &p.d.Comparator
	if n = deref(n); n.Kind == yaml.ScalarNode {
		c.Kind = p.Str(n, "comparator")
		return
	}
	p.fields(n, "comparator", yamlnode.Fields{
		{Key: "kind", Str: &c.Kind},
		{Key: "field", Str: &c.Field},
		{Key: "agent", Str: &c.Agent},
		{Key: "prompt", Str: &c.Prompt},
	})
}

func (p *dparser) examples(n *yaml.Node) {
	p.seq(n, "examples", func(pre string, c *yaml.Node) {
		ex := Example{Pos: p.d.pos[pre]}
		object := func(dst *map[string]any, what string) func(k, v *yaml.Node) {
			return func(_, v *yaml.Node) { *dst = p.object(v, pre+"."+what) }
		}
		p.fields(c, pre, yamlnode.Fields{
			{Key: "name", Str: &ex.Name},
			{Key: "args", Read: object(&ex.Args, "args")},
			{Key: "expect", Read: func(_, v *yaml.Node) {
				ex.Expect = p.object(v, pre+".expect")
				ex.expectNotObject = ex.Expect == nil && !yamlnode.IsNull(v)
			}},
			{Key: "actual", Read: object(&ex.Actual, "actual")},
			{Key: "description"},
			{Key: "notes"},
		})
		p.d.Examples = append(p.d.Examples, ex)
		release(c)
	})
}

// release drops an example's nodes once it is read, so a dataset of many
// examples never holds its whole node tree and its decoded examples at
// once: the walk reads each example once and nothing reads the tree
// after it. An example that is itself an anchor is kept (a later item may
// be its alias); an alias of a node under it points at that node, which
// stays whole.
func release(n *yaml.Node) {
	if n.Anchor == "" {
		n.Content = nil
	}
}

func (p *dparser) selection(n *yaml.Node) {
	s := &DatasetSelection{}
	p.d.Selection = s
	p.fields(n, "selection", yamlnode.Fields{
		{Key: "strategy", Str: &s.Strategy},
		{Key: "pinned", Read: func(_, v *yaml.Node) {
			pin := &Pin{}
			s.Pinned = pin
			p.fields(v, "selection.pinned", yamlnode.Fields{
				{Key: "profile", Str: &pin.Profile},
				{Key: "model", Str: &pin.Model},
				{Key: "effort", Str: &pin.Effort},
				{Key: "evidence", Str: &pin.Evidence},
				{Key: "fallback_profile", Str: &pin.FallbackProfile},
			})
		}},
	})
}
