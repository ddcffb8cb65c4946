package yamlfast

import (
	"fmt"
	"kitsoki/internal/fastpath"
	"strings"
	"unsafe"

	"go.yaml.in/yaml/v3"
)

// Over is where a document passes the node limit of ParseWithin: the
// 1-based line and column of the first node past it.
type Over struct{ Line, Col int }

// ParseWithin parses data, one YAML document, into the node tree yaml.v3's
// Decoder gives (comments left out), building at most max nodes (no limit
// when max <= 0), or says why and where it declined outside the subset
// (the caller then decodes with yaml.v3). A document holding more than max
// nodes stops at the node past max, whose place it returns (Over) with no
// tree, having built no node (a file that could pass max, CouldPass, is
// counted first); the caller refuses such a file rather than hand it to
// yaml.v3. With SwitchEnv off it declines with no place. A Declined.Later:
// the first document, which Decode reads, was whole within max, so a
// caller need not count it again. A small document's values share one copy
// of data; from detachBytes each value is a string of its own, so a caller
// keeping a few values does not keep the whole text.
func ParseWithin(data []byte, max int) (*yaml.Node, *Declined, *Over) {
	if len(data) == 0 || Off() {
		return nil, &Declined{Why: "off or empty"}, nil
	}
	// a file that could pass max is counted first, building nothing: the
	// build would hold max nodes before it stopped at the one past them
	if CouldPass(len(data), max) {
		if over, d := Count(data, max); over != nil {
			return nil, &Declined{Why: "too many nodes"}, over
		} else if d != nil {
			return nil, d, nil
		}
	}
	if len(data) >= detachBytes {
		return parseAt(unsafe.String(unsafe.SliceData(data), len(data)), true, max, false)
	}
	return parseAt(string(data), false, max, false)
}

// CouldPass reports whether a file of size bytes could hold more than
// max nodes in one document (max > 0): a node takes 2/3 of a byte at the
// least (a flow list of "?" entries in yaml.v3; yamlfast's densest,
// "[a:,b:]", takes a byte), so a smaller file is within max unread.
func CouldPass(size, max int) bool { return max > 0 && size > max*2/3 }

// detachBytes is the size from which ParseWithin gives each value its own string.
const detachBytes = 16 << 10

// SwitchEnv turns the fast front end off (KITSOKI_YAMLFAST=0, false, off, no).
const SwitchEnv = "KITSOKI_YAMLFAST"

// Off reports whether SwitchEnv turns the fast front end off, on every call.
func Off() bool { return fastpath.Off(SwitchEnv) }

// maxDepth bounds the nesting of collections ParseWithin accepts.
const maxDepth = 400

// maxKeyBytes bounds an implicit key (libyaml: its ':' within 1024 characters).
const maxKeyBytes = 1000

// decline is the panic value that unwinds a parse that leaves the subset.
type decline struct{ why string }

// parser is the state of one parse: a cursor over src and the nodes made.
type parser struct {
	src       string
	pos       int
	line      int // 0-based line of pos
	lineStart int // offset of the first byte of pos's line
	depth     int
	lead      bool // before the first token: a document marker is fine
	docEnd    bool // skipSpace stopped at a document marker
	detach    bool // values are copied out of src, never substrings of it
	tabs      int  // tabs in src
	safeTabs  int  // tabs met where libyaml takes them as characters (safe)

	// colLine, colPos and colVal cache the last column computed on a line.
	colLine, colPos, colVal int

	nodes    int  // nodes made so far (in this document)
	maxNodes int  // the limit of ParseWithin (none when <= 0)
	later    bool // in a later document (laterDocuments)

	// count: nodes are counted, not built (Count, later documents): node
	// hands out scratch, and no children are collected
	count   bool
	scratch yaml.Node

	kids []*yaml.Node // children being collected, as a stack
	buf  []byte       // scratch for values that are not substrings of src
}

// Declined is why a parse left the subset and where: the 1-based line and
// column it was at (0, 0 for a reason found before parsing: a character,
// an empty input); Later: in a document after the first, which was whole
// within the limit.
type Declined struct {
	Why       string
	Line, Col int
	Later     bool
}

// Count is ParseWithin building no tree, also when SwitchEnv turns the
// front end off (a count is a bound, not a front end): where data passes
// max nodes, else why and where it leaves the subset (both nil: within
// max). It allocates no node: each is counted in one scratch node
// (TestCountAllocatesNoNodes, BenchmarkCountPastTheLimit).
func Count(data []byte, max int) (*Over, *Declined) {
	if len(data) == 0 {
		return nil, &Declined{Why: "empty input"}
	}
	_, d, over := parseAt(unsafe.String(unsafe.SliceData(data), len(data)), false, max, true)
	return over, d
}

// parseAt is ParseWithin over src (detach: no value shares src's memory),
// its panics and bugs declining as "internal error".
// count: build no node, only count them (Count).
func parseAt(src string, detach bool, max int, count bool) (doc *yaml.Node, dec *Declined, over *Over) {
	// libyaml drops a leading byte-order mark without counting it in any
	// column, and reads "\r\n" as one line break wherever it occurs.
	src = strings.TrimPrefix(src, "\ufeff")
	if strings.IndexByte(src, '\r') >= 0 {
		var ok bool
		if src, ok = dropCR(src); !ok {
			return nil, &Declined{Why: "carriage return without a line feed"}, nil
		}
	}
	if src == "" {
		return nil, &Declined{Why: "empty input"}, nil
	}
	w, tabs := checkChars(src)
	if w != "" {
		return nil, &Declined{Why: w}, nil
	}
	// nodes: the document node, made last, counts first as in yaml.v3's tree
	p := &parser{src: src, colLine: -1, detach: detach, tabs: tabs, maxNodes: max, nodes: 1, count: count}
	defer func() {
		if r := recover(); r != nil {
			doc = nil
			switch r := r.(type) {
			case decline:
				dec = &Declined{Why: r.why, Line: p.line + 1, Later: p.later}
				if p.lineStart <= p.pos && p.pos <= len(p.src) {
					dec.Col = p.col() + 1
				}
			case *Over:
				dec, over = &Declined{Why: "too many nodes"}, r
			default:
				dec = &Declined{Why: fmt.Sprintf("internal error: %v", r)}
			}
		}
	}()
	return p.document(), nil, nil
}

func (p *parser) fail(why string) { panic(decline{why}) }

// document parses the whole input as one document.
func (p *parser) document() *yaml.Node {
	p.lead = true // the leading "---" may follow comments
	p.skipSpace()
	p.lead = false
	if p.pos >= len(p.src) {
		p.fail("no content")
	}
	docLine, docCol := p.line, p.col()
	if p.marker() {
		if p.src[p.pos] == '.' {
			p.fail("document end marker")
		}
		p.pos += 3
		p.lineEnd()
		p.skipSpace()
		if p.done() {
			p.fail("empty document")
		}
	}
	root := p.blockNode(-1)
	build := !p.count // later documents are counted, not built
	p.skipSpace()
	if p.docEnd {
		p.laterDocuments()
	} else if p.pos < len(p.src) {
		p.fail("content after the document's node")
	}
	if p.safeTabs != p.tabs {
		p.fail("tab outside comments, block scalars and one-line quoted scalars")
	}
	doc := &yaml.Node{Kind: yaml.DocumentNode, Line: docLine + 1, Column: docCol + 1} // counted first (parse)
	if build {
		doc.Content = []*yaml.Node{root}
	}
	return doc
}

// laterDocuments checks the documents after the first, from the marker at
// pos: yaml.v3 scans a few tokens past the first document, so each later
// one must be in the subset too. Their nodes are counted, not built.
func (p *parser) laterDocuments() {
	for p.pos < len(p.src) {
		explicit := p.src[p.pos] == '-'
		p.pos += 3
		p.lineEnd()
		p.docEnd = false
		p.lead = true
		p.skipSpace()
		p.lead = false
		if p.pos >= len(p.src) {
			return
		}
		if p.marker() {
			continue
		}
		if !explicit {
			p.fail("content after a document end marker")
		}
		// a later document is checked, not kept: yaml.v3's Decode reads
		// only the first, so its nodes count apart, past the limit a decline
		p.nodes, p.later, p.count = 1, true, true
		p.blockNode(-1)
		p.skipSpace()
		if !p.docEnd && p.pos < len(p.src) {
			p.fail("content after the document's node")
		}
	}
}

// blockNode parses the node at pos in block context, the innermost block
// collection indented indent (-1 at the document level).
func (p *parser) blockNode(indent int) *yaml.Node {
	p.enter()
	n := p.blockNode1(indent)
	p.depth--
	return n
}

// enter counts one more level of nesting (the caller's p.depth-- leaves it).
func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail("nesting too deep")
	}
}

func (p *parser) blockNode1(indent int) *yaml.Node {
	line, col := p.line, p.col()
	start := p.pos
	var n *yaml.Node
	var multi bool
	switch c := p.src[p.pos]; {
	case c == '-' && p.blankz(p.pos+1):
		return p.blockSeq(col, false)
	case c == '|' || c == '>':
		return p.blockScalar(indent)
	case c == '[' || c == '{':
		n = p.flowCollection(indent)
		p.lineEnd()
		return n
	case c == '"' || c == '\'':
		n, multi = p.quoted(indent)
	case notPlainStart(c):
		p.fail("indicator " + string(c))
	default:
		n, multi = p.plain(indent, false)
	}
	if p.colonAfter() {
		if multi || p.pos-start > maxKeyBytes {
			p.fail("not a simple key")
		}
		return p.blockMap(line, col, n)
	}
	p.lineEnd()
	return n
}

// notPlainStart reports a character (not '-') that cannot start a plain scalar.
func notPlainStart(c byte) bool {
	switch c {
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return true
	}
	return false
}

// blockMap parses a block mapping whose first key, at line and col, is
// parsed; pos is at the ':' after it.
func (p *parser) blockMap(line, col int, key *yaml.Node) *yaml.Node {
	m := p.node(line, col)
	m.Kind, m.Tag = yaml.MappingNode, tagMap
	mark := len(p.kids)
	for {
		p.pos++ // ':'
		val := p.mapValue(col)
		p.keepPair(key, val)
		if !p.nextEntry(col, "mapping entry indented more than its mapping") {
			break
		}
		key = p.blockKey(col)
	}
	m.Content = p.takeKids(mark)
	return m
}

// nextEntry moves to the next token and reports whether it starts another
// entry of the block collection at column col: a token left of col ends it,
// and one right of it is refused with why.
func (p *parser) nextEntry(col int, why string) bool {
	p.skipSpace()
	if p.done() {
		return false
	}
	c := p.col()
	if c > col {
		p.fail(why)
	}
	return c == col
}

// blockKey parses the key of a further entry of a block mapping indented
// indent; pos is left at the ':' after it.
func (p *parser) blockKey(indent int) *yaml.Node {
	start := p.pos
	var n *yaml.Node
	var multi bool
	switch c := p.src[p.pos]; c {
	case '"', '\'':
		n, multi = p.quoted(indent)
	default:
		if notPlainStart(c) || c == '-' && p.blankz(p.pos+1) {
			p.fail("not a key")
		}
		n, multi = p.plain(indent, false)
	}
	if multi || !p.colonAfter() || p.pos-start > maxKeyBytes {
		p.fail("not a simple key")
	}
	return n
}

// mapValue parses the value after a key's ':' in a mapping indented mcol.
func (p *parser) mapValue(mcol int) *yaml.Node {
	at, line, lineStart := p.pos, p.line, p.lineStart // where an empty value is
	p.skipBlanks()
	if !p.atLineEnd() {
		return p.inlineValue(mcol)
	}
	p.skipSpace()
	if p.done() {
		return p.empty(line, colAt(p.src, lineStart, at))
	}
	c := p.col()
	if c > mcol {
		return p.blockNode(mcol)
	}
	if c == mcol && p.src[p.pos] == '-' && p.blankz(p.pos+1) {
		p.enter()
		n := p.blockSeq(mcol, true)
		p.depth--
		return n
	}
	return p.empty(line, colAt(p.src, lineStart, at))
}

// inlineValue parses a mapping value on its key's line (never a block collection).
func (p *parser) inlineValue(mcol int) *yaml.Node {
	var n *yaml.Node
	switch c := p.src[p.pos]; {
	case c == '|' || c == '>':
		return p.blockScalar(mcol)
	case c == '[' || c == '{':
		n = p.flowCollection(mcol)
	case c == '"' || c == '\'':
		n, _ = p.quoted(mcol)
	case c == '-' && p.blankz(p.pos+1):
		p.fail("sequence on a key's line")
	case notPlainStart(c):
		p.fail("indicator " + string(c))
	default:
		n, _ = p.plain(mcol, false)
	}
	p.lineEnd()
	return n
}

// blockSeq parses a block sequence whose entries start at column scol;
// indentless: it is the value of a key at that column.
func (p *parser) blockSeq(scol int, indentless bool) *yaml.Node {
	s := p.node(p.line, scol)
	s.Kind, s.Tag = yaml.SequenceNode, tagSeq
	mark := len(p.kids)
	for {
		p.pos++ // '-'
		p.keep(p.seqItem(scol))
		if !p.nextEntry(scol, "sequence entry indented more than its sequence") {
			break
		}
		if p.src[p.pos] == '-' && p.blankz(p.pos+1) {
			continue
		}
		if indentless {
			break
		}
		p.fail("sequence line without '-'")
	}
	s.Content = p.takeKids(mark)
	return s
}

// seqItem parses the entry after a '-' of a sequence at column scol.
func (p *parser) seqItem(scol int) *yaml.Node {
	at, line, lineStart := p.pos, p.line, p.lineStart // where an empty entry is
	p.skipBlanks()
	if !p.atLineEnd() {
		return p.blockNode(scol)
	}
	p.skipSpace()
	if !p.done() && p.col() > scol {
		return p.blockNode(scol)
	}
	return p.empty(line, colAt(p.src, lineStart, at))
}

// empty returns the null scalar yaml.v3 puts where a value is missing.
func (p *parser) empty(line, col int) *yaml.Node { return p.scalar("", tagNull, 0, line, col) }

// sub returns src[i:j], a copy when values must not share src's memory
// (and are kept: not when counting).
func (p *parser) sub(i, j int) string {
	if p.detach && !p.count {
		return strings.Clone(p.src[i:j])
	}
	return p.src[i:j]
}

// scalar returns a scalar node of value v and style at line and col.
func (p *parser) scalar(v, tag string, style yaml.Style, line, col int) *yaml.Node {
	n := p.node(line, col)
	n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, tag, v, style
	return n
}
