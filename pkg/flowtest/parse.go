package flowtest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// maxFixtureBytes bounds a fixture file.
const maxFixtureBytes = 8 << 20

// maxFixtureTurns and maxFileTurns bound the turns of one fixture and of
// one file: each turn keeps its result for the report, so they bound memory.
const (
	maxFixtureTurns = 1_000
	maxFileTurns    = 10_000
)

type parser struct {
	file      string
	lineOff   int // lines before the document
	colOff    int // columns before the document on its first line
	turnsLeft int // of maxFileTurns, before this document
	ds        []diag.Diagnostic
	// merges is what merge keys may still copy in the file (shared by its
	// documents; nil: a count of its own), mergeCut that this document
	// was told it ran out (parse_merge.go).
	merges   *int
	mergeCut bool
	// mergeListRepeats lets the mappings of a merged list share a key
	// (the later wins), as upstream's decoder does below a map's top.
	mergeListRepeats bool
	// repeatsSaid are the (key, first) pairs of a merged list already
	// reported: an alias merged many times repeats the same nodes, and one
	// finding per place is what an author can act on.
	repeatsSaid map[[2]*yaml.Node]bool
}

func (p *parser) pos(n *yaml.Node) Pos {
	if n == nil {
		return Pos{File: p.file, Line: p.lineOff + 1, Col: 1}
	}
	col := n.Column
	if n.Line == 1 {
		col += p.colOff
	}
	return Pos{File: p.file, Line: n.Line + p.lineOff, Col: col}
}

// lineCol is "LINE:COL" of node n in the file (pos), for a message that
// points at a second place.
func (p *parser) lineCol(n *yaml.Node) string {
	ps := p.pos(n)
	return fmt.Sprintf("%d:%d", ps.Line, ps.Col)
}

func (p *parser) errf(n *yaml.Node, rule *diag.Rule, format string, a ...any) {
	p.add(p.pos(n), diag.Error, rule, format, a...)
}

func (p *parser) warnf(n *yaml.Node, rule *diag.Rule, format string, a ...any) {
	p.add(p.pos(n), diag.Warning, rule, format, a...)
}

// add reports at a position already taken (errf and warnf take a node's).
func (p *parser) add(ps Pos, sev diag.Severity, rule *diag.Rule, format string, a ...any) {
	p.ds = append(p.ds, diag.Diagnostic{File: ps.File, Line: ps.Line, Col: ps.Col, Severity: sev, Rule: rule.ID, Message: fmt.Sprintf(format, a...)})
}

// piece is one "\n---"-separated document of a fixture file.
type piece struct {
	src          []byte // the document's bytes, trimmed (a slice of the file's)
	line, colOff int    // line offset (lines before), column offset on its first line
}

// pos is node n's place in file, the file pc was cut from.
func (pc piece) pos(file string, n *yaml.Node) Pos {
	return (&parser{file: file, lineOff: pc.line, colOff: pc.colOff}).pos(n)
}

// split cuts a file on the literal "\n---" as upstream does (flow-format.md
// §1.2), trimming each piece and keeping where it starts.
func split(content []byte) []piece {
	var out []piece
	start := 0
	for {
		i := bytes.Index(content[start:], []byte("\n---"))
		end := len(content)
		if i >= 0 {
			end = start + i
		}
		raw := content[start:end]
		lead := len(raw) - len(bytes.TrimLeft(raw, " \t\r\n"))
		text := bytes.TrimSpace(raw)
		if len(text) > 0 {
			abs := start + lead
			line := bytes.Count(content[:abs], []byte("\n"))
			colOff := abs - (bytes.LastIndexByte(content[:abs], '\n') + 1)
			out = append(out, piece{src: text, line: line, colOff: colOff})
		}
		if i < 0 {
			break
		}
		start = end + len("\n---")
	}
	return out
}

// parse reads a fixture file's flow documents (others are skipped); an
// Error diagnostic means a fixture that cannot run.
func parse(file string, data []byte) ([]*Fixture, []diag.Diagnostic) {
	if len(data) > maxFixtureBytes {
		return nil, []diag.Diagnostic{{File: file, Line: 1, Col: 1, Severity: diag.Error, Rule: ruleSyntax.ID,
			Message: fmt.Sprintf("fixture file is %d bytes, more than the %d-byte limit; split it into several files", len(data), maxFixtureBytes)}}
	}
	var out []*Fixture
	var ds []diag.Diagnostic
	left := maxFileTurns
	merges, aliasText := maxMergedKeys, yamlnode.MaxAliasText
	for _, pc := range split(data) {
		fx, fds := readDoc(file, pc, left, &merges, &aliasText)
		ds = append(ds, fds...)
		if fx != nil {
			out = append(out, fx)
			left -= len(fx.Turns)
		}
	}
	for i, fx := range out {
		fx.Doc, fx.Docs = i+1, len(out)
	}
	return out, ds
}

// readDoc reads one document of file: its fixture (nil when it is not a
// flow document) and its parse findings. merges and aliasText are what
// the file's merge keys may still copy and its aliases still repeat.
func readDoc(file string, pc piece, turnsLeft int, merges, aliasText *int) (*Fixture, []diag.Diagnostic) {
	p := &parser{file: file, lineOff: pc.line, colOff: pc.colOff, turnsLeft: turnsLeft, merges: merges}
	src, bom := strings.CutPrefix(string(pc.src), "\ufeff")
	doc, over, err := decodeDoc(src)
	if over != nil {
		p.errf(&yaml.Node{Line: over.Line, Column: over.Col}, ruleSyntax, "%s", yamlnode.TreeNodesMsg("fixture document", yamlnode.MaxTreeNodes, "split its turns across fixture files"))
		return nil, p.ds
	}
	if err != nil {
		line, msg := yamlnode.ErrLine(err)
		return nil, []diag.Diagnostic{{File: file, Line: max(line, 1) + pc.line, Col: 1, Severity: diag.Error, Rule: ruleSyntax.ID,
			Message: "YAML does not parse: " + msg}}
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	if at := yamlnode.AliasTextOver(root, aliasText); at != nil {
		// each use repeats the text into the run, its failures and reports
		p.errf(at, ruleValue, "%s", yamlnode.AliasTextMsg("fixture file", "split the file"))
		return nil, p.ds
	}
	if k := yamlnode.WrittenComplexKey(root); k != nil {
		// upstream's parser refuses it in every document of the file
		p.errf(k, ruleShape, "%s; the existing engine refuses this fixture file (found an invalid key for this map)", yamlnode.ComplexKeyMsg("fixture"))
		return nil, p.ds
	}
	if k := yamlnode.FlowKeyTab(root, []byte(src)); k != nil {
		p.errf(k, ruleShape, "%s", yamlnode.FlowKeyTabMsg("fixture file"))
		return nil, p.ds
	}
	if root.Kind != yaml.MappingNode {
		p.errf(root, ruleShape, "a fixture document must be a mapping of keys (test_kind: flow, turns: ...)")
		return nil, p.ds
	}
	if bom && !p.bomKey(root) {
		return nil, p.ds
	}
	if kind := testKind(root, merges); kind == nil || kind.Kind != yaml.ScalarNode || kind.Value != "flow" {
		// upstream parses every document of the file
		if second, first := yamlnode.FirstRepeatedKey(root); second != nil {
			p.duplicateKey(second, first, "document")
		}
		return nil, p.ds // the BOM's warning, if any
	}
	fx := p.fixture(root)
	fx.File = file
	if !p.failed() {
		// upstream's parser refuses a key written twice anywhere, also
		// under a key the fixture does not have (read ones are reported
		// where they are read)
		if second, first := yamlnode.FirstRepeatedKey(root); second != nil {
			p.duplicateKey(second, first, "fixture")
		}
	}
	return fx, p.ds
}

// failed reports whether an error has been reported.
func (p *parser) failed() bool {
	return slices.ContainsFunc(p.ds, func(d diag.Diagnostic) bool { return d.Severity == diag.Error })
}

// bomKey applies a byte-order mark (U+FEFF) at the start of a document
// (of the file, or after a ---) as upstream's YAML parser reads it: part
// of the first key, when the document starts with a plain key (which then names no key the runner knows: a
// first test_kind: flow is not read, and the document is skipped);
// anything else there (a comment, ---, a quoted or flow key) it refuses.
func (p *parser) bomKey(root *yaml.Node) bool {
	k := root.Content[0]
	if root.Style&yaml.FlowStyle != 0 || k.Kind != yaml.ScalarNode || k.Style != 0 || k.Line != 1 || k.Column != 1 {
		p.errf(root, ruleSyntax, "the document starts with a byte-order mark (U+FEFF), which the existing engine's YAML parser reads as text, here before something that is not a key (it refuses the file: \"unexpected key name\"); save the file as UTF-8 without a BOM")
		return false
	}
	p.warnf(k, ruleShape, "the document starts with a byte-order mark (U+FEFF), which the existing engine reads as part of the first key (%q), so it does not read %s; save the file as UTF-8 without a BOM", "\ufeff"+k.Value, k.Value)
	k.Value = "\ufeff" + k.Value
	return true
}

// testKind is the node of a document's test_kind (written, or taken
// from a merge key's mapping), or nil; what its merges copy is charged to
// merges, the file's count (the document's parse reports a limit passed).
func testKind(root *yaml.Node, merges *int) *yaml.Node {
	var kind *yaml.Node
	for _, q := range (&parser{merges: merges}).record(root, "fixture") {
		if q.k.Value == "test_kind" {
			kind = yamlnode.Deref(q.v)
		}
	}
	return kind
}

// keyAt is where one key of a mapping and its value are.
type keyAt struct {
	key     string
	at, val Pos
}

// keyList is the keys of a mapping in file order.
type keyList []keyAt

// find returns the entry of key (of a repeated key the later, read one).
func (l keyList) find(key string) (keyAt, bool) {
	for _, k := range slices.Backward(l) {
		if k.key == key {
			return k, true
		}
	}
	return keyAt{}, false
}

// pos returns where key (or, with value, its value) is, or else.
func (l keyList) pos(key string, value bool, or Pos) Pos {
	k, ok := l.find(key)
	switch {
	case !ok:
		return or
	case value:
		return k.val
	}
	return k.at
}

// fields reads each key of mapping n through the table fs, warning of
// unknown and ignored keys (upstream is silent), and returns where each key is.
func (p *parser) fields(n *yaml.Node, where string, ignored map[string]string, fs yamlnode.Fields) keyList {
	n = yamlnode.Deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		p.errf(n, ruleShape, "%s: expected a mapping", where)
		return nil
	}
	keys := make(keyList, 0, len(n.Content)/2)
	for _, q := range p.record(n, where) {
		k, v := q.k, yamlnode.Deref(q.v)
		keys = append(keys, keyAt{key: k.Value, at: p.pos(k), val: p.pos(v)})
		if f := fs.Find(k.Value); f != nil {
			if isNull(v) {
				// upstream's decoder leaves the field unset
				p.warnf(v, ruleShape, "%s: null is read as if %q were absent, as the existing engine does: nothing is set or checked (drop the key or give it a value)", dotted(where, k.Value), k.Value)
				continue
			}
			if f.Read != nil {
				f.Read(k, v)
			}
			continue
		}
		if why, ok := ignored[k.Value]; ok {
			p.warnf(k, ruleIgnoredKey, "%s: %q is ignored: %s", where, k.Value, why)
			continue
		}
		if v != nil && q.v.Anchor != "" && !q.merged {
			continue // a key holding an anchor for merge keys and aliases below
		}
		msg := fmt.Sprintf("%s: unknown key %q is ignored", where, k.Value)
		if s := yamlnode.DidYouMean(k.Value, fs.Keys()); s != "" {
			msg += "; " + s
		}
		p.warnf(k, ruleUnknownKey, "%s", msg)
	}
	return keys
}

// into is a field reader that reads the value with read into *dst;
// intoPtr keeps a pointer to it.
func into[T any](dst *T, read func(*yaml.Node, string) T, where string) func(k, v *yaml.Node) {
	return func(k, v *yaml.Node) { *dst = read(v, dotted(where, k.Value)) }
}

func intoPtr[T any](dst **T, read func(*yaml.Node, string) T, where string) func(k, v *yaml.Node) {
	return func(k, v *yaml.Node) { *dst = new(read(v, dotted(where, k.Value))) }
}

// isNull: v is a YAML null (~, null, or nothing).
func isNull(v *yaml.Node) bool {
	n := yamlnode.Deref(v)
	return n != nil && n.Kind == yaml.ScalarNode && scalarValue(n) == nil
}

func dotted(where, key string) string {
	if where == "" {
		return key
	}
	return where + "." + key
}

// didYouMean is " (did you mean `x`?)" (yamlnode.DidYouMean), for a
// suggestion inside a sentence, or "".
func didYouMean(key string, known []string) string {
	if s := yamlnode.DidYouMean(key, known); s != "" {
		return " (" + s + ")"
	}
	return ""
}

// node is v resolved when of kind; nil when absent, null, or of another
// kind (then reported: "<where>: expected <what>").
func (p *parser) node(v *yaml.Node, kind yaml.Kind, where, what string) *yaml.Node {
	v = yamlnode.Deref(v)
	if v == nil || (v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null") {
		return nil
	}
	if v.Kind != kind {
		p.errf(v, ruleShape, "%s: expected %s", where, what)
		return nil
	}
	return v
}

func (p *parser) str(v *yaml.Node, where string) string {
	if v = p.node(v, yaml.ScalarNode, where, "a string"); v == nil {
		return ""
	}
	return p.scalarText(v, where)
}

// scalarText is a scalar read into a text field as upstream's decoder
// reads it (0x10 is "16", True is "true", null is ""), with a warning
// naming the quotes that keep a plain scalar whose text changes.
func (p *parser) scalarText(v *yaml.Node, where string) string {
	s, changed := decodedText(v)
	if changed && !yamlnode.IsNull(v) {
		p.warnf(v, ruleShape, "%s: %s is read as the text %q, as the existing engine's decoder reads it; quote it (%q) to keep it as written", where, v.Value, s, v.Value)
	}
	return s
}

func (p *parser) boolean(v *yaml.Node, where string) bool {
	v = yamlnode.Deref(v)
	if v == nil || v.Kind != yaml.ScalarNode {
		p.errf(v, ruleShape, "%s: expected true or false", where)
		return false
	}
	b, ok := scalarValue(v).(bool)
	if !ok {
		// a quoted "true" or a YAML 1.1 yes/no/on: upstream refuses the file
		if b, ok := yamlnode.Bool(strings.TrimSpace(v.Value)); ok {
			p.errf(v, ruleShape, "%s: %q is not a boolean: the existing engine refuses this fixture file (cannot unmarshal string into bool); write %t", where, v.Value, b)
			return b
		}
		p.errf(v, ruleShape, "%s: expected true or false, got %q", where, v.Value)
	}
	return b
}

// integer reads a whole number as upstream's decoder does: a decimal
// truncated toward zero, text as story.IncrementText reads it; anything
// but a plain whole number is a warning naming the number to write.
func (p *parser) integer(v *yaml.Node, where string) int {
	v = yamlnode.Deref(v)
	if v != nil && v.Kind == yaml.ScalarNode {
		switch x := scalarValue(v).(type) {
		case int64:
			return int(x)
		case float64:
			if x == float64(int(x)) {
				return int(x)
			}
			if x > -1<<63 && x < 1<<63 {
				n := int(x)
				p.warnf(v, ruleShape, "%s: %s read as %d (truncated toward zero, as the existing engine does); write %d", where, v.Value, n, n)
				return n
			}
		case string:
			if n, ok := story.IncrementText(x); ok {
				if n2, err := strconv.Atoi(x); err == nil && n2 == n {
					p.warnf(v, ruleShape, "%s: %q read as the number %d; write it unquoted", where, x, n)
				} else {
					p.warnf(v, ruleShape, "%s: %q read as the number %d, as the existing engine does; write %d", where, x, n, n)
				}
				return n
			}
		}
	}
	p.errf(v, ruleShape, "%s: expected a whole number", where)
	return 0
}

func (p *parser) strList(v *yaml.Node, where string) []string {
	if v = p.node(v, yaml.SequenceNode, where, "a list of strings"); v == nil {
		return nil
	}
	out := make([]string, 0, len(v.Content))
	for i, c := range v.Content {
		out = append(out, p.str(c, where+"["+strconv.Itoa(i)+"]"))
	}
	return out
}

// duplicateKey reports a key written twice in one mapping, which
// upstream's decoder refuses.
func (p *parser) duplicateKey(k, prev *yaml.Node, where string) {
	p.errf(k, ruleShape, "%s: key %q appears twice (first at %s): the existing engine refuses this fixture file (mapping key %q already defined); keep one", where, k.Value, p.lineCol(prev), k.Value)
}

// kvs reads a mapping of arbitrary values, keys in file order.
func (p *parser) kvs(v *yaml.Node, where string) []KV {
	if v = p.node(v, yaml.MappingNode, where, "a mapping"); v == nil {
		return nil
	}
	out := make([]KV, 0, len(v.Content)/2)
	for _, q := range p.entries(v, where) {
		k := q.k
		// a key is text as any text field (inside a value: keyString)
		kv := KV{Key: p.scalarText(k, where+" key"), Value: p.valueOf(q.v), Pos: p.pos(k)}
		// a repeated key (merged, or an error reported): the later one is read
		if i := slices.IndexFunc(out, func(o KV) bool { return o.Key == kv.Key }); i >= 0 {
			out[i] = kv
			continue
		}
		out = append(out, kv)
	}
	return out
}

func (p *parser) dataMap(v *yaml.Node, where string) map[string]any {
	if v = p.node(v, yaml.MappingNode, where, "a mapping (the handler's result data)"); v == nil {
		return nil
	}
	m, _ := p.valueOf(v).(map[string]any)
	return m
}

func (p *parser) duration(v *yaml.Node, where string) (string, bool) {
	s := p.str(v, where)
	if _, err := parseDuration(s); err != nil {
		p.errf(v, ruleValue, "%s: %v", where, err)
		return s, false
	}
	p.warnNaNDays(v, where, s)
	return s, true
}

// warnNaNDays warns at a duration of NaN days, which parseDuration reads
// as 0, and at one of more days than a duration holds, which it reads as
// amd64 does.
func (p *parser) warnNaNDays(v *yaml.Node, where, s string) {
	switch {
	case nanDays(s):
		p.warnf(v, ruleNaNDuration, "%s: %q is not a number of days; the existing engine takes it as the most negative duration on amd64 and 0 on arm64 (no advance, no delay on both), kitsoki as 0 on every CPU; write 0s or remove it", where, s)
	case overDays(s):
		p.warnf(v, ruleNaNDuration, "%s: %q is more days than a duration holds (at most 106751d); the existing engine converts it as the CPU does, the most negative duration on amd64 (no advance, no delay) and the longest on arm64, kitsoki as on amd64; write 0s or remove it", where, s)
	}
}

// decodeDoc decodes one fixture document with yamlfast, else with
// yaml.v3 and its errors; over is where it passes the node limit.
func decodeDoc(text string) (*yaml.Node, *yamlnode.Over, error) {
	data, masked := yamlnode.MaskSlashEscapes([]byte(text)) // "\/" reads as "/", as upstream
	data, pairs := yamlnode.MaskSurrogatePairs(data)        // "\ud83d\udc4d" is one character, as upstream
	doc, over, err := yamlnode.Decode(data, yamlnode.MaxTreeNodes)
	if errors.Is(err, io.EOF) {
		return &yaml.Node{}, nil, nil
	}
	if err != nil || over != nil {
		return nil, over, err
	}
	if masked {
		yamlnode.UnmaskSlashEscapes(doc)
	}
	yamlnode.UnmaskSurrogatePairs(doc, pairs)
	return doc, nil, nil
}
