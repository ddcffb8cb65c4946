package story

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"kitsoki/internal/fastpath"
	"kitsoki/internal/yamlnode"

	"go.yaml.in/yaml/v3"
)

// A whole file's YAML tree weighs many times its text
// (BenchmarkLarge30kStates/lean-split-off measures it), so a large
// story's top-level states: block is cut at the lines that start a state
// and parsed a batch of states at a time, each batch's nodes dropped before
// the next; the rest of the file is parsed with the block's lines emptied,
// so line numbers hold. The split is used only when it is provably the
// same parse (no tabs, CRs, directives, anchors, aliases, odd top-level
// keys, and each batch one block mapping at the expected column); anything
// else, syntax errors included, falls back to the whole-file parse.
// TestSplitParseMatchesWholeParse and FuzzSplitStates check it.

// SplitEnv turns the state-by-state parse off (KITSOKI_YAMLSPLIT=0, ...).
const SplitEnv = "KITSOKI_YAMLSPLIT"

// splitOff reports whether SplitEnv turns the split off; read on every load.
func splitOff() bool { return fastpath.Off(SplitEnv) }

// statesSplit is a file cut around its top-level states: block.
type statesSplit struct {
	// top is the file with the block's lines emptied (newlines kept).
	top []byte
	// statesLine is the 1-based line of the `states:` key.
	statesLine int
	// indent is the column (0-based) of the state keys.
	indent int
	// chunks are the byte spans of the states, in order.
	chunks []chunkSpan
}

// chunkSpan is the text of one state: data[start:end], starting at line.
type chunkSpan struct {
	start, end int
	line       int
}

// splitStates cuts data around its top-level states: block, or reports
// false when the cut is not provably safe or has fewer than two states.
func splitStates(data []byte) (*statesSplit, bool) {
	if bytes.IndexByte(data, '\t') >= 0 || bytes.IndexByte(data, '\r') >= 0 {
		return nil, false
	}
	sp := &statesSplit{indent: -1}
	const (
		before = iota // the lines before `states:`
		inside        // the states block
		after         // the rest of the file
	)
	phase := before
	blockStart, tailStart := -1, len(data)
	lineNo := 0
	for off := 0; off < len(data); {
		end := len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			end = off + i + 1
		}
		line := data[off:end]
		lineNo++
		ind, content := lineIndent(line)
		if ind == 0 && (line[0] == '%' || bytes.HasPrefix(line, []byte("---")) || bytes.HasPrefix(line, []byte("..."))) {
			return nil, false // directives and document markers
		}
		if phase == inside && content && ind == 0 {
			phase, tailStart = after, off
		}
		switch {
		case phase == inside:
			if !content {
				break
			}
			if sp.indent < 0 {
				sp.indent = ind
			}
			switch {
			case ind < sp.indent:
				return nil, false
			case ind == sp.indent:
				if !plainKeyStart(line[ind]) {
					return nil, false
				}
				if n := len(sp.chunks); n > 0 {
					sp.chunks[n-1].end = off
				}
				sp.chunks = append(sp.chunks, chunkSpan{start: off, line: lineNo})
			}
		case ind == 0 && content:
			// A top-level key: the only states: key must be spelled plainly.
			if phase == before && isStatesKeyLine(line) {
				sp.statesLine, blockStart, phase = lineNo, end, inside
			} else if bytes.HasPrefix(line, []byte("states")) || strings.IndexByte("\"'?{[&*!<", line[0]) >= 0 {
				return nil, false // `states :`, `states: {…}`, a quoted or complex key, a merge…
			}
		}
		off = end
	}
	if sp.statesLine == 0 || len(sp.chunks) < 2 {
		return nil, false
	}
	sp.chunks[len(sp.chunks)-1].end = tailStart
	// The top document: the block's lines emptied, every newline kept.
	top := make([]byte, 0, blockStart+bytes.Count(data[blockStart:tailStart], []byte("\n"))+len(data)-tailStart)
	top = append(top, data[:blockStart]...)
	for _, c := range data[blockStart:tailStart] {
		if c == '\n' {
			top = append(top, '\n')
		}
	}
	sp.top = append(top, data[tailStart:]...)
	return sp, true
}

// lineIndent returns line's leading spaces and whether it holds content.
func lineIndent(line []byte) (int, bool) {
	rest := bytes.TrimLeft(line, " ")
	return len(line) - len(rest), len(rest) > 0 && rest[0] != '\n' && rest[0] != '#'
}

// isStatesKeyLine reports a line `states:`, maybe with spaces and a comment.
func isStatesKeyLine(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("states:"))
	if !ok {
		return false
	}
	t := bytes.TrimLeft(rest, " ")
	if len(t) == 0 || t[0] == '\n' {
		return true
	}
	return t[0] == '#' && len(t) < len(rest)
}

// plainKeyStart reports whether c starts a plain or quoted scalar key.
func plainKeyStart(c byte) bool {
	switch c {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`':
		return false
	}
	return true
}

// batchBytes is about how much state text parseBatch parses at once: its
// tree stays under a megabyte, and the parser's set-up is paid per batch.
const batchBytes = 32 << 10

// nextBatch returns how many chunks of cs make a batch of about max bytes.
func nextBatch(cs []chunkSpan, max int) int {
	n, size := 0, 0
	for n < len(cs) && (n == 0 || size+cs[n].end-cs[n].start <= max) {
		size += cs[n].end - cs[n].start
		n++
	}
	return n
}

// parseBatch parses consecutive states cs and returns their key and value
// nodes at their lines in the file, or false unless the text is one block
// mapping whose keys start the chunks, without anchors or aliases.
func parseBatch(data []byte, cs []chunkSpan, indent, maxNodes int) ([]*yaml.Node, bool) {
	first := cs[0]
	doc, syn := decodeYAML(data[first.start:cs[len(cs)-1].end], maxNodes)
	if syn != nil || doc == nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, false
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode || m.Style&yaml.FlowStyle != 0 || len(m.Content) != 2*len(cs) || m.Anchor != "" || m.Tag != "!!map" {
		return nil, false
	}
	shift := first.line - 1
	for i, c := range cs {
		k, v := m.Content[2*i], m.Content[2*i+1]
		if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" || k.Line != c.line-shift || k.Column != indent+1 {
			return nil, false
		}
		if !shiftLines(k, shift, 0) || !shiftLines(v, shift, 0) {
			return nil, false
		}
	}
	return m.Content, true
}

// shiftLines shifts the lines of n's tree; false at an anchor, alias or depth.
func shiftLines(n *yaml.Node, shift, depth int) bool {
	if n.Anchor != "" || n.Kind == yaml.AliasNode || depth > 1000 {
		return false
	}
	n.Line += shift
	for _, c := range n.Content {
		if !shiftLines(c, shift, depth+1) {
			return false
		}
	}
	return true
}

// parseFileDoc parses one file, split when safe (nil after a reported
// syntax error); an include: file's tables are made only for its keys.
func (l *loader) parseFileDoc(display, abs string, data []byte, include bool) (*fileDef, *fileParser) {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		l.rep.Errf(Pos{File: display, Line: 1, Col: 1}, RuleYAMLSyntax, "the file starts with a byte-order mark (U+FEFF), which the existing engine reads as part of the first key and refuses: save it as UTF-8 without a BOM")
	}
	fd, p := l.parseFileDocIn(display, abs, data, include)
	if p != nil {
		// alias expansion past the file's own nodes counts against later files
		l.aliasSpent += max(p.Limit-max(p.Budget, 0)-len(data), 0)
	}
	return fd, p
}

// parseFileDocIn is parseFileDoc within what the load's node budget has left.
func (l *loader) parseFileDocIn(display, abs string, data []byte, include bool) (*fileDef, *fileParser) {
	newParser := func() *fileParser {
		p := newFileParser(l.rep, display, filepath.Dir(abs), len(data))
		if floor := l.opts.nodeFloor(); floor != yamlnode.MaxNodes {
			p.Budget, p.Limit = floor+len(data), floor+len(data)
		}
		if l.aliasSpent > 0 {
			p.Budget = max(p.Budget-l.aliasSpent, len(data))
			p.Limit = p.Budget
			p.LimitNote = fmt.Sprintf(" (aliases in the files of this story read before it took %d of the %d nodes aliases may add to a whole story)", min(l.aliasSpent, l.opts.nodeFloor()), l.opts.nodeFloor())
		}
		p.owned, p.include, p.src = true, include, data
		return p
	}
	if !l.opts.wholeParse && !splitOff() {
		if sp, ok := splitStates(data); ok {
			if top, syn := decodeYAML(sp.top, l.opts.nodeFloor()); syn == nil {
				mark := len(l.rep.Diags)
				p := newParser()
				p.split, p.splitData, p.batch, p.maxNodes = sp, data, batchBytes, l.opts.nodeFloor()
				if l.opts.splitBatch > 0 {
					p.batch = l.opts.splitBatch
				}
				fd := p.parseDoc(top)
				if p.splitUsed && !p.splitFailed {
					l.sources[display] = data
					return fd, p
				}
				l.rep.Diags = l.rep.Diags[:mark] // parsed again below, whole
			}
		}
	}
	doc := l.parseFile(display, data)
	if doc == nil {
		return nil, nil
	}
	p := newParser()
	return p.parseDoc(doc), p
}

// parseSplitStates parses a split file's states: block batch by batch, as
// parseStates would; it sets splitFailed when a batch is not safe.
func (p *fileParser) parseSplitStates() []*State {
	p.splitUsed = true
	block := &yaml.Node{Kind: yaml.MappingNode} // stands for the states mapping on the walk path
	if !p.Enter(block, nil, yamlnode.Place{Where: "states"}) {
		p.splitFailed = true
		return nil
	}
	defer p.Leave(block)
	var out []*State
	type at struct{ line, col int }
	seen := make(map[string]at, len(p.split.chunks))
	for cs := p.split.chunks; len(cs) > 0; {
		n := nextBatch(cs, p.batch)
		pairs, ok := parseBatch(p.splitData, cs[:n], p.split.indent, p.maxNodes)
		if !ok {
			p.splitFailed = true
			return nil
		}
		cs = cs[n:]
		for i := 0; i < len(pairs); i += 2 {
			k, v := pairs[i], pairs[i+1]
			pairs[i], pairs[i+1] = nil, nil // the state's nodes go once it is parsed
			if !p.Spend(k, yamlnode.Place{Where: "states"}, -1) {
				p.splitFailed = true
				return nil
			}
			key := k.Value
			if prev, dup := seen[key]; dup {
				p.Errf(p.Pos(k), RuleDuplicateKey, "%s: mapping key %q already defined at line %d, column %d", "states", key, prev.line, prev.col)
				continue
			}
			seen[key] = at{k.Line, k.Column}
			out = append(out, p.parseState(key, k, v, nil, "states."+yamlnode.KeyText(key)))
		}
	}
	return out
}
