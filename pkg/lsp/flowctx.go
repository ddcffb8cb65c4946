package lsp

import "strings"

// flowCtx is where the cursor sits inside YAML flow collections
// ({a: b}, [a, b]) open before it: what completion needs to know on a line
// that does not parse yet.
type flowCtx struct {
	// keys are the mapping keys from the block key that opened the first
	// collection down to the cursor, "[]" for a sequence item, in the
	// form of keyPath (so statePathOf reads them).
	keys []string
	// at is what the cursor types: a mapping value (flowValue, of the key
	// keys ends with), a mapping key (flowKey, in the mapping the key
	// keys ends with owns) or a sequence item (flowItem, of the sequence
	// the key keys ends with owns).
	at flowAt
}

type flowAt int

const (
	flowNone flowAt = iota
	flowValue
	flowKey
	flowItem
)

// flowFrame is one open flow collection.
type flowFrame struct {
	seq bool
	// owner is the key whose value the collection is ("[]" for a
	// sequence item, "" when unknown).
	owner string
	// key is, in a mapping, the key whose value is being written ("" at a
	// key position).
	key string
}

// maxFlowLines bounds how far above the cursor a flow collection that
// spans lines is looked for.
const maxFlowLines = 20

// flowContext finds the flow collections open at the cursor: before is
// the text of the cursor's line before it, ls the buffer's lines. A
// collection may have been opened on an earlier line; the nearest line
// from which the text up to the cursor reads as open collections with a
// known owner is taken. ok is false outside any flow collection.
func flowContext(ls []string, line int, before string) (flowCtx, int, bool) {
	text := before
	for k := line; k >= 0 && k > line-maxFlowLines; k-- {
		if k < line {
			text = ls[k] + "\n" + text
		}
		fc, ok := scanFlow(text)
		if !ok {
			continue
		}
		if fc.at != flowNone && fc.known() {
			return fc, k, true
		}
	}
	return flowCtx{}, line, false
}

// known reports whether the context names the key it completes for.
func (fc flowCtx) known() bool {
	return len(fc.keys) > 0 && fc.keys[len(fc.keys)-1] != "" && fc.keys[len(fc.keys)-1] != "[]"
}

// scanFlow reads text (a block line's content, possibly followed by the
// lines a flow collection spans) up to its end, the cursor. ok is false
// when the text closes more collections than it opens or is not a block
// line.
func scanFlow(text string) (flowCtx, bool) {
	s := &flowScan{text: text}
	for i := s.blockItems(); i < len(text); i++ {
		c := text[i]
		// a quote or bracket starts a quoted scalar or a collection only
		// where a scalar starts: "a [b" and "it's" are plain text
		atStart := strings.TrimSpace(s.tok.String()) == ""
		switch {
		case c == '\n' && len(s.stack) == 0:
			return flowCtx{}, true // the block line ended: no collection spans to the cursor
		case isQuote(c) && atStart:
			j := quotedEnd(text, i)
			if j >= len(text) {
				return flowFrameCtx(s.stack, s.chain), true // the cursor is inside a quoted scalar
			}
			s.tok.WriteString(text[i+1 : j])
			i = j
		case c == '#' && startsComment(text, i):
			i = lineEnd(text, i)
		case (c == '{' || c == '[') && atStart:
			s.stack = append(s.stack, flowFrame{seq: c == '[', owner: s.owner()})
			s.tok.Reset()
		case (c == '}' || c == ']') && len(s.stack) > 0:
			if !s.close(c) {
				return flowCtx{}, false
			}
		case c == ',' && len(s.stack) > 0:
			s.comma()
		case c == ':' && s.endsKey(i):
			s.key()
		default:
			s.tok.WriteByte(c)
		}
	}
	return flowFrameCtx(s.stack, s.chain), true
}

// flowScan is scanFlow's place in the text: the open flow collections,
// the block line's own keys and "- " items, and the scalar read so far.
type flowScan struct {
	text  string
	stack []flowFrame
	chain []string
	tok   strings.Builder
}

// blockItems reads the block sequence items ("- ", any number) before the
// line's content and returns where the content starts.
func (s *flowScan) blockItems() int {
	i := 0
	for {
		t := strings.TrimLeft(s.text[i:], " \t")
		if strings.HasPrefix(t, "- ") || t == "-" {
			i = len(s.text) - len(t) + 1
			s.chain = append(s.chain, "[]")
			continue
		}
		return len(s.text) - len(t)
	}
}

// owner is what a collection opened now is the value of.
func (s *flowScan) owner() string {
	if n := len(s.stack); n > 0 {
		top := s.stack[n-1]
		if top.seq {
			return "[]"
		}
		return top.key
	}
	if len(s.chain) > 0 {
		return s.chain[len(s.chain)-1]
	}
	return ""
}

// close ends the innermost collection with c; false when c does not match
// its bracket.
func (s *flowScan) close(c byte) bool {
	if s.stack[len(s.stack)-1].seq != (c == ']') {
		return false
	}
	s.stack = s.stack[:len(s.stack)-1]
	s.tok.Reset()
	return true
}

// comma ends an entry of the innermost collection.
func (s *flowScan) comma() {
	if top := &s.stack[len(s.stack)-1]; !top.seq {
		top.key = ""
	}
	s.tok.Reset()
}

// endsKey reports whether the ':' at i ends a key: it is followed by the
// end, a blank, or (inside a collection) a flow indicator.
func (s *flowScan) endsKey(i int) bool {
	if i+1 == len(s.text) || strings.ContainsRune(" \t\n", rune(s.text[i+1])) {
		return true
	}
	return len(s.stack) > 0 && strings.ContainsRune(",[]{}", rune(s.text[i+1]))
}

// key takes the scalar read so far as the key of the innermost mapping,
// or of the block line.
func (s *flowScan) key() {
	key := strings.TrimSpace(s.tok.String())
	s.tok.Reset()
	if n := len(s.stack); n > 0 {
		if !s.stack[n-1].seq {
			s.stack[n-1].key = key
		}
		return
	}
	s.chain = append(s.chain, key)
}

func isQuote(c byte) bool { return c == '"' || c == '\'' }

// quotedEnd is the index of the quote closing the scalar opened at i
// (len(text) when it is not closed); a double-quoted one skips escapes.
func quotedEnd(text string, i int) int {
	c := text[i]
	j := i + 1
	for j < len(text) && text[j] != c {
		if c == '"' && text[j] == '\\' {
			j++
		}
		j++
	}
	return j
}

// startsComment reports whether the '#' at i starts a comment (it begins
// the text or follows a blank).
func startsComment(text string, i int) bool {
	return i == 0 || text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n'
}

// lineEnd is the index of the last byte before the newline after i (or
// the text's last byte).
func lineEnd(text string, i int) int {
	for i+1 < len(text) && text[i+1] != '\n' {
		i++
	}
	return i
}

// flowFrameCtx turns the open collections into the cursor's context.
func flowFrameCtx(stack []flowFrame, chain []string) flowCtx {
	if len(stack) == 0 {
		return flowCtx{}
	}
	keys := append([]string(nil), chain...)
	for i, f := range stack {
		// the first collection's owner is the block line's last key,
		// already in chain
		if i > 0 || len(keys) == 0 {
			keys = append(keys, f.owner)
		}
	}
	top := stack[len(stack)-1]
	switch {
	case top.seq:
		return flowCtx{keys: keys, at: flowItem}
	case top.key != "":
		return flowCtx{keys: append(keys, top.key), at: flowValue}
	}
	return flowCtx{keys: keys, at: flowKey}
}
