package yamlfast

import "go.yaml.in/yaml/v3"

// cur returns the byte at pos, 0 at the end (checkChars refuses NUL).
func (p *parser) cur() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// flowCollection parses the flow sequence or mapping at pos; indent is the
// innermost block collection's (continuation lines must be indented more).
func (p *parser) flowCollection(indent int) *yaml.Node {
	p.enter()
	n := p.node(p.line, p.col())
	n.Style = yaml.FlowStyle
	n.Kind, n.Tag = yaml.SequenceNode, tagSeq
	closing := byte(']')
	if p.src[p.pos] == '{' {
		n.Kind, n.Tag, closing = yaml.MappingNode, tagMap, '}'
	}
	mark := len(p.kids)
	p.pos++
	p.flowSpace(indent)
	if p.cur() == closing {
		p.pos++
	} else {
		for {
			if closing == ']' {
				p.keep(p.flowItem(indent))
			} else {
				p.flowPair(indent)
			}
			p.flowSpace(indent)
			if p.flowNext(indent, closing) {
				break
			}
		}
	}
	n.Content = p.takeKids(mark)
	p.depth--
	return n
}

// flowPair parses a flow mapping entry (key: value) onto the kids.
func (p *parser) flowPair(indent int) {
	start, line := p.pos, p.line
	key := p.flowKey(indent)
	p.skipBlanks()
	if p.cur() != ':' || p.line != line || p.pos-start > maxKeyBytes {
		p.fail("flow mapping key without ':'")
	}
	p.pos++
	p.flowSpace(indent)
	var val *yaml.Node
	if c := p.cur(); c == ',' || c == '}' {
		val = p.empty(p.line, p.col()) // at the next token, as libyaml puts it
	} else {
		val = p.flowItem(indent)
	}
	p.keepPair(key, val)
}

// flowNext consumes what follows a flow entry: a ',' before another entry
// (false) or the closing bracket, after a ',' or not (true).
func (p *parser) flowNext(indent int, closing byte) bool {
	switch p.cur() {
	case ',':
		p.pos++
		p.flowSpace(indent)
		if p.cur() == closing { // a trailing comma, which libyaml allows
			p.pos++
			return true
		}
		return false
	case closing:
		p.pos++
		return true
	}
	p.fail("unexpected character in a flow collection")
	return false
}

// flowItem parses a flow sequence entry or a flow mapping value.
func (p *parser) flowItem(indent int) *yaml.Node {
	switch c := p.cur(); {
	case c == '[' || c == '{':
		return p.flowCollection(indent)
	case c == '"' || c == '\'':
		n, _ := p.quoted(indent)
		return n
	case c == '-' && p.blankz(p.pos+1):
		p.fail("'-' in a flow collection")
	case c == 0:
		p.fail("unterminated flow collection")
	case notPlainStart(c):
		p.fail("indicator " + string(c) + " in a flow collection")
	}
	n, _ := p.plain(indent, true)
	return n
}

// flowKey parses a flow mapping key: a one-line plain or quoted scalar.
func (p *parser) flowKey(indent int) *yaml.Node {
	var n *yaml.Node
	var multi bool
	switch c := p.cur(); {
	case c == '"' || c == '\'':
		n, multi = p.quoted(indent)
	case c == '-' && p.blankz(p.pos+1):
		p.fail("'-' in a flow collection")
	case c == 0:
		p.fail("unterminated flow collection")
	case notPlainStart(c):
		p.fail("not a flow mapping key")
	default:
		n, multi = p.plain(indent, true)
	}
	if multi {
		p.fail("multi-line flow key")
	}
	return n
}

// flowSpace moves past blanks and comments in a flow collection, declining
// at a line not indented more than indent or at a document marker.
func (p *parser) flowSpace(indent int) {
	crossed := false
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ':
			p.pos++
		case '\n':
			p.newline()
			crossed = true
			if p.marker() {
				p.fail("document marker in a flow collection")
			}
		case '#':
			p.toLineEnd()
		default:
			if crossed && p.pos-p.lineStart <= indent {
				p.fail("flow continuation line not indented")
			}
			return
		}
	}
}
