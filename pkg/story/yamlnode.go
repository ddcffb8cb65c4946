package story

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// maxNodes is the floor of the node budget of one file (nodeBudget).
const maxNodes = 2_000_000

// nodeBudget bounds the work spent walking the YAML tree of a file of size
// bytes, so aliases that fan out (a "billion laughs" document) cannot hang
// the loader: maxNodes plus one node per byte. A YAML node takes at least
// one byte of text ("1," or "a,"), so a file without aliases never reaches
// its budget however large it is (the read cap bounds the size); only
// alias expansion can.
func nodeBudget(size int) int { return maxNodes + size }

// reporter collects diagnostics for one load.
type reporter struct {
	ds []diag.Diagnostic
}

func (r *reporter) add(p Pos, sev diag.Severity, rule *Rule, format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	// Diagnostics are one line: library errors sometimes append a source
	// snippet with a caret, which the output formats render themselves.
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = strings.TrimSpace(msg[:i])
	}
	r.ds = append(r.ds, diag.Diagnostic{
		File: p.File, Line: p.Line, Col: p.Col,
		Severity: sev, Rule: rule.ID, Message: msg,
	})
}

func (r *reporter) errf(p Pos, rule *Rule, format string, a ...any) {
	r.add(p, diag.Error, rule, format, a...)
}

func (r *reporter) warnf(p Pos, rule *Rule, format string, a ...any) {
	r.add(p, diag.Warning, rule, format, a...)
}

// demoteSince turns the errors reported since mark (a len(r.ds)) into
// warnings that carry note: problems in blocks upstream never checks.
func (r *reporter) demoteSince(mark int, note string) {
	for i := mark; i < len(r.ds); i++ {
		if r.ds[i].Severity == diag.Error {
			r.ds[i].Severity = diag.Warning
			r.ds[i].Message += " (" + note + ")"
		}
	}
}

// fileParser turns the YAML nodes of one file into model values.
type fileParser struct {
	*reporter
	file   string // as reported in diagnostics
	dir    string // absolute directory of the file
	budget int
	// limit is the budget the parse started with (for the message).
	limit int
	// exhausted is set once the budget ran out and was reported.
	exhausted bool
	// active holds the mapping/sequence nodes being walked, so an alias
	// that refers to its own ancestor is reported instead of recursing
	// forever.
	active []*yaml.Node
	// owned: the tree belongs to this parse alone, so a top-level state's
	// nodes are released once the state is parsed (parseStates).
	owned bool
	// split, when set, is the file cut state by state (yamlsplit.go):
	// parseDoc reads the states: block from splitData chunk by chunk.
	split     *statesSplit
	splitData []byte
	batch     int // bytes of state text parsed at once
	// splitUsed and splitFailed report that the block was read from the
	// split, and that a chunk was not safe to (the whole file is parsed
	// instead).
	splitUsed, splitFailed bool
	// strs remembers recent strings (intern).
	strs *[internSlots]string
	// interning is on for a large file only: for a small one the table
	// costs more than the copies it saves.
	interning bool
	// include: the file is an include: file (parseFileDoc).
	include bool
	// arms, effects and their pointer lists are cut from chunks
	// (parse_slab.go).
	arms       slab[Transition]
	armPtrs    slab[*Transition]
	effects    slab[Effect]
	effectPtrs slab[*Effect]
	// elements and elementPtrs: the same for view elements.
	elements    slab[ViewElement]
	elementPtrs slab[*ViewElement]
	// strScratch is bodyPositions' reused scratch list.
	strScratch []strAt
}

// internSlots is the size of the string cache of a file's parse.
const internSlots = 4096

// internMinBytes is the file size from which strings are interned.
const internMinBytes = 256 << 10

// intern returns an earlier string equal to s when the cache holds one: a
// large story repeats the same intent names, targets, guards and
// templates thousands of times, and the model then keeps one copy. The
// cache is a fixed table (a hash picks the slot, a newer string takes it
// over), so it costs 64 KiB however many distinct strings a file has;
// only a file of internMinBytes or more uses it.
func (p *fileParser) intern(s string) string {
	if !p.interning || len(s) == 0 || len(s) > 128 {
		return s
	}
	if p.strs == nil {
		p.strs = new([internSlots]string)
	}
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	slot := &p.strs[h%internSlots]
	if *slot == s {
		return *slot
	}
	*slot = s
	return s
}

// enter marks n as being walked; it reports and returns false when n is
// already on the walk path (a recursive alias).
func (p *fileParser) enter(n, orig *yaml.Node, at place) bool {
	if p.isActive(n) || len(p.active) > 200 {
		p.errf(p.pos(orig), ruleYAMLSyntax, "%s: recursive or too deeply nested YAML (an alias refers to its own ancestor)", at.String())
		return false
	}
	p.push(n)
	return true
}

// push puts n on the walk path.
func (p *fileParser) push(n *yaml.Node) {
	if p.active == nil {
		p.active = make([]*yaml.Node, 0, 32)
	}
	p.active = append(p.active, n)
}

func (p *fileParser) leave(n *yaml.Node) {
	for i := len(p.active) - 1; i >= 0; i-- {
		if p.active[i] == n {
			p.active = append(p.active[:i], p.active[i+1:]...)
			return
		}
	}
}

// isActive reports whether n is on the walk path. The path is at most a
// couple of hundred nodes deep (enter refuses deeper), and mostly a few:
// a scan beats a map.
func (p *fileParser) isActive(n *yaml.Node) bool {
	for _, a := range p.active {
		if a == n {
			return true
		}
	}
	return false
}

// spend takes one node from the budget. When it runs out it reports, once
// per file and at the node where it happened, a positioned error: the rest
// of the file is not read, and the story must not pass as valid with keys
// silently dropped.
func (p *fileParser) spend(at *yaml.Node, in place, idx int) bool {
	p.budget--
	if p.budget >= 0 {
		return true
	}
	if !p.exhausted {
		p.exhausted = true
		where := in.String()
		if idx >= 0 {
			where = indexed(where, idx)
		}
		p.errf(p.pos(at), ruleYAMLSyntax, "%s: the file expands to more than %d YAML nodes (an alias bomb: aliases expanding to far more nodes than the file holds); kitsoki stops reading it here rather than drop the rest: shrink or split it", where, p.limit)
	}
	return false
}

func (p *fileParser) pos(n *yaml.Node) Pos {
	if n == nil {
		return Pos{File: p.file}
	}
	return Pos{File: p.file, Line: n.Line, Col: n.Column}
}

// deref follows aliases (bounded) and returns the target node.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 16; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

func isNull(n *yaml.Node) bool {
	n = deref(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") || n.Kind == 0
}

func kindName(n *yaml.Node) string {
	n = deref(n)
	if n == nil {
		return "null"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!bool":
			return "a bool"
		case "!!int":
			return "an int"
		case "!!float":
			return "a float"
		}
		return "a string"
	}
	return "an unknown node"
}

// mapping iterates the key/value pairs of a mapping node. It reports
// duplicate keys, merge keys it cannot honour, and (when known is non-nil)
// unknown keys with a "did you mean" suggestion. where names the block in
// messages. It returns false if n is not a mapping (a type error is
// reported unless n is null).
func (p *fileParser) mapping(n *yaml.Node, where string, known []string, fn func(key string, k, v *yaml.Node)) bool {
	return p.mappingSev(n, where, known, diag.Error, fn)
}

func (p *fileParser) mappingSev(n *yaml.Node, where string, known []string, unknownSev diag.Severity, fn func(key string, k, v *yaml.Node)) bool {
	return p.mappingIn(n, place{where: where}, known, unknownSev, fn)
}

// place names a block in messages: pre+where, where quoted if quote,
// then "."+key when key is set and "[idx]" when indexed. The name is put
// together only when a message needs it.
type place struct {
	pre, where string
	quote      bool
	key        string
	keyed      bool // key is set (it may be empty)
	idx        int
	indexed    bool
}

func (pl place) String() string {
	s := pl.where
	if pl.quote {
		s = strconv.Quote(s)
	}
	if pl.keyed {
		s += "." + pl.key
	}
	if pl.indexed {
		s = indexed(s, pl.idx)
	}
	return pl.pre + s
}

// item is the place of item i of the list at pl.
func (pl place) item(i int) place {
	if pl.indexed {
		return place{pre: pl.pre, where: pl.String()[len(pl.pre):], idx: i, indexed: true}
	}
	pl.idx, pl.indexed = i, true
	return pl
}

// seqAt is seq for the list named at in messages.
func (p *fileParser) seqAt(n *yaml.Node, at place, fn func(i int, item *yaml.Node)) bool {
	n, ok := p.open(n, yaml.SequenceNode, at)
	if !ok {
		return false
	}
	defer p.leave(n)
	for i, it := range n.Content {
		if !p.spend(it, at, i) {
			return true
		}
		fn(i, it)
	}
	return true
}

// open is the start of reading the collection n (aliases followed) of
// kind, named at in messages: false for null, for another kind (reported)
// and past the depth limit (enter reports it). On true the caller must
// leave the node it returns.
func (p *fileParser) open(n *yaml.Node, kind yaml.Kind, at place) (*yaml.Node, bool) {
	orig := n
	n = deref(n)
	if isNull(n) {
		return nil, false
	}
	if n.Kind != kind {
		what := "a mapping"
		if kind == yaml.SequenceNode {
			what = "a list"
		}
		p.errf(p.pos(orig), ruleType, "%s: expected %s, got %s", at.String(), what, kindName(n))
		return nil, false
	}
	if !p.enter(n, orig, at) {
		return nil, false
	}
	return n, true
}

// strAtPl is str(n, at+"."+key), the name put together only when an
// error is reported.
func (p *fileParser) strAtPl(n *yaml.Node, at place, key string) string {
	if d := deref(n); d != nil && d.Kind == yaml.ScalarNode && !isNull(d) {
		return p.intern(d.Value)
	}
	return p.str(n, at.String()+"."+key)
}

// boolAtPl is boolean(n, at+"."+key), the name put together only when an
// error is reported.
func (p *fileParser) boolAtPl(n *yaml.Node, at place, key string) bool {
	if d := deref(n); d != nil && d.Kind == yaml.ScalarNode && !isNull(d) {
		switch strings.ToLower(d.Value) {
		case "true", "yes", "on":
			return true
		case "false", "no", "off":
			return false
		}
	}
	return p.boolean(n, at.String()+"."+key)
}

func (p *fileParser) mappingIn(n *yaml.Node, at place, known []string, unknownSev diag.Severity, fn func(key string, k, v *yaml.Node)) bool {
	n, ok := p.open(n, yaml.MappingNode, at)
	if !ok {
		return false
	}
	defer p.leave(n)
	// seen finds a repeated key: a map for a large mapping, a scan of the
	// keys before it for a small one (seenBefore).
	var seen map[string]*yaml.Node
	if len(n.Content) > 2*smallMapping {
		seen = make(map[string]*yaml.Node, len(n.Content)/2)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if !p.spend(n.Content[i], at, -1) {
			return true
		}
		k, v := deref(n.Content[i]), n.Content[i+1]
		if k == nil {
			continue
		}
		if k.Kind != yaml.ScalarNode {
			p.errf(p.pos(k), ruleType, "%s: mapping keys must be strings, got %s", at.String(), kindName(k))
			continue
		}
		key := p.intern(k.Value)
		if k.Tag == "!!merge" {
			// `<<: *anchor` merges another mapping in.
			src := deref(v)
			if src != nil && src.Kind == yaml.MappingNode {
				p.mappingIn(src, at, known, unknownSev, fn)
			} else if src != nil && src.Kind == yaml.SequenceNode {
				for _, it := range src.Content {
					p.mappingIn(it, at, known, unknownSev, fn)
				}
			}
			continue
		}
		var prev *yaml.Node
		if seen != nil {
			prev = seen[key]
		} else {
			prev = seenBefore(n.Content[:i], key)
		}
		if prev != nil {
			p.errf(p.pos(k), ruleDuplicateKey, "%s: mapping key %q already defined at line %d, column %d", at.String(), key, prev.Line, prev.Column)
			continue
		}
		if seen != nil {
			seen[key] = k
		}
		if known != nil && !contains(known, key) {
			msg := fmt.Sprintf("%s: unknown key %q", at.String(), key)
			if s := suggest(key, known); s != "" {
				msg += fmt.Sprintf("; did you mean `%s`?", s)
			}
			p.add(p.pos(k), unknownSev, ruleUnknownKey, "%s", msg)
			continue
		}
		fn(key, k, v)
	}
	return true
}

// smallMapping is the number of keys up to which mappingIn finds a
// repeated key by scanning the keys before it.
const smallMapping = 16

// seenBefore returns the first key node of content (the key/value pairs
// of a mapping before the current key) that mappingIn recorded as key:
// a string key other than a merge key, as its seen map would hold it.
func seenBefore(content []*yaml.Node, key string) *yaml.Node {
	for j := 0; j+1 < len(content); j += 2 {
		if k := deref(content[j]); k != nil && k.Kind == yaml.ScalarNode && k.Tag != "!!merge" && k.Value == key {
			return k
		}
	}
	return nil
}

// seq iterates the items of a sequence node; a null is an empty list.
func (p *fileParser) seq(n *yaml.Node, where string, fn func(i int, item *yaml.Node)) bool {
	return p.seqAt(n, place{where: where}, fn)
}

// str decodes a scalar as a string. Numbers and bools are accepted as
// their text (as a lenient YAML decoder would); lists and maps are errors.
func (p *fileParser) str(n *yaml.Node, where string) string {
	orig := n
	n = deref(n)
	if isNull(n) {
		return ""
	}
	if n.Kind != yaml.ScalarNode {
		p.errf(p.pos(orig), ruleType, "%s: expected a string, got %s", where, kindName(n))
		return ""
	}
	return p.intern(n.Value)
}

// strAt is str(n, where+"[i]"), the name put together only when an error
// is reported.
func (p *fileParser) strAt(n *yaml.Node, where string, i int) string {
	if d := deref(n); d != nil && d.Kind == yaml.ScalarNode && !isNull(d) {
		return p.intern(d.Value)
	}
	return p.str(n, indexed(where, i))
}

// strIn is str(n, where+"."+key), the name put together only when an
// error is reported.
func (p *fileParser) strIn(n *yaml.Node, where, key string) string {
	if d := deref(n); d != nil && d.Kind == yaml.ScalarNode && !isNull(d) {
		return p.intern(d.Value)
	}
	return p.str(n, where+"."+key)
}

// boolIn is boolean(n, where+"."+key), the name put together only when
// an error is reported.
func (p *fileParser) boolIn(n *yaml.Node, where, key string) bool {
	if d := deref(n); d != nil && d.Kind == yaml.ScalarNode && !isNull(d) {
		switch strings.ToLower(d.Value) {
		case "true", "yes", "on":
			return true
		case "false", "no", "off":
			return false
		}
	}
	return p.boolean(n, where+"."+key)
}

func (p *fileParser) boolean(n *yaml.Node, where string) bool {
	orig := n
	n = deref(n)
	if isNull(n) {
		return false
	}
	if n.Kind == yaml.ScalarNode {
		switch strings.ToLower(n.Value) {
		case "true", "yes", "on":
			return true
		case "false", "no", "off":
			return false
		}
	}
	p.errf(p.pos(orig), ruleType, "%s: expected true or false, got %s", where, describe(n))
	return false
}

func (p *fileParser) boolPtr(n *yaml.Node, where string) *bool {
	if isNull(n) {
		return nil
	}
	b := p.boolean(n, where)
	return &b
}

func (p *fileParser) integer(n *yaml.Node, where string) int {
	orig := n
	n = deref(n)
	if isNull(n) {
		return 0
	}
	if n.Kind == yaml.ScalarNode {
		if v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			return int(v)
		}
	}
	p.errf(p.pos(orig), ruleType, "%s: expected an integer, got %s", where, describe(n))
	return 0
}

func (p *fileParser) float(n *yaml.Node, where string) *float64 {
	orig := n
	n = deref(n)
	if isNull(n) {
		return nil
	}
	if n.Kind == yaml.ScalarNode {
		if v, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return &v
		}
	}
	p.errf(p.pos(orig), ruleType, "%s: expected a number, got %s", where, describe(n))
	return nil
}

// strList decodes a list of strings; a single scalar is accepted as a
// one-element list.
func (p *fileParser) strList(n *yaml.Node, where string) []string {
	d := deref(n)
	if d != nil && d.Kind == yaml.ScalarNode && !isNull(d) {
		return []string{d.Value}
	}
	var out []string
	if d != nil && d.Kind == yaml.SequenceNode && len(d.Content) > 0 {
		out = make([]string, 0, len(d.Content))
	}
	p.seq(n, where, func(i int, it *yaml.Node) {
		out = append(out, p.strAt(it, where, i))
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

// itemPos is the position of each item strList reads from n, in order.
func (p *fileParser) itemPos(n *yaml.Node) []Pos {
	d := deref(n)
	if d == nil || isNull(d) {
		return nil
	}
	if d.Kind != yaml.SequenceNode {
		return []Pos{p.pos(n)}
	}
	out := make([]Pos, 0, len(d.Content))
	for _, it := range d.Content {
		out = append(out, p.pos(it))
	}
	return out
}

func (p *fileParser) strMap(n *yaml.Node, where string) map[string]string {
	out := map[string]string{}
	p.mapping(n, where, nil, func(key string, _, v *yaml.Node) {
		out[key] = p.str(v, where+"."+key)
	})
	return out
}

// raw converts a node to a plain Go value (map[string]any, []any, string,
// int, float64, bool, nil), bounded by the parser's node budget.
func (p *fileParser) raw(n *yaml.Node) any {
	return p.rawDepth(n, 0)
}

func (p *fileParser) rawDepth(n *yaml.Node, depth int) any {
	orig := n
	n = deref(n)
	if n == nil || !p.spend(orig, place{where: "value"}, -1) {
		return nil
	}
	if depth > 200 {
		if !p.exhausted {
			p.exhausted = true
			p.errf(p.pos(orig), ruleYAMLSyntax, "value: YAML nested more than 200 levels deep; kitsoki stops reading it here: flatten it")
		}
		return nil
	}
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		if p.isActive(n) {
			p.errf(p.pos(orig), ruleYAMLSyntax, "value: recursive YAML (an alias refers to its own ancestor)")
			return nil
		}
		p.push(n)
		defer p.leave(n)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) > 0 {
			return p.rawDepth(n.Content[0], depth+1)
		}
		return nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, p.rawDepth(c, depth+1))
		}
		return out
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := deref(n.Content[i])
			if k == nil {
				continue
			}
			if k.Tag == "!!merge" {
				if m, ok := p.rawDepth(n.Content[i+1], depth+1).(map[string]any); ok {
					for mk, mv := range m {
						if _, exists := out[mk]; !exists {
							out[mk] = mv
						}
					}
				}
				continue
			}
			out[p.intern(k.Value)] = p.rawDepth(n.Content[i+1], depth+1)
		}
		return out
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null", "!!bool", "!!int", "!!float":
			v := scalarValue(n)
			if s, ok := v.(string); ok {
				return p.intern(s)
			}
			return v
		}
		return p.intern(n.Value) // scalarValue's string, boxed once
	}
	return nil
}

func scalarValue(n *yaml.Node) any {
	switch n.Tag {
	case "!!null":
		return nil
	case "!!bool":
		switch strings.ToLower(n.Value) {
		case "true", "yes", "on":
			return true
		}
		return false
	case "!!int":
		if v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			return int(v)
		}
		if v, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return v
		}
		return n.Value
	case "!!float":
		if v, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return v
		}
		return n.Value
	}
	return n.Value
}

func describe(n *yaml.Node) string {
	n = deref(n)
	if n != nil && n.Kind == yaml.ScalarNode {
		v := n.Value
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		return fmt.Sprintf("%q", v)
	}
	return kindName(n)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// hasKey reports whether the mapping node d (dereferenced) has a key
// written key (no checks), as contains(keysOf(d), key) without the list.
func hasKey(d *yaml.Node, key string) bool {
	for i := 0; i+1 < len(d.Content); i += 2 {
		if d.Content[i].Value == key {
			return true
		}
	}
	return false
}

// keysOf returns the keys of a mapping node in order (no checks).
func keysOf(n *yaml.Node) []string {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, n.Content[i].Value)
	}
	return out
}

// valuePos is the position of a scalar's first content character: past the
// opening quote of a quoted scalar. Block scalars keep the indicator's
// position.
func (p *fileParser) valuePos(n *yaml.Node) Pos {
	pos := p.pos(n)
	if d := deref(n); d != nil && d.Kind == yaml.ScalarNode && (d.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle)) != 0 && d == n {
		pos.Col++
	}
	return pos
}

// indexed returns where[i], as a message names a list item.
func indexed(where string, i int) string {
	return where + "[" + strconv.Itoa(i) + "]"
}
