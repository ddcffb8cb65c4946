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
	var stack []flowFrame
	var chain []string // the block line's own keys and "- " items
	// owner is what a collection opened now is the value of.
	owner := func() string {
		if n := len(stack); n > 0 {
			top := stack[n-1]
			if top.seq {
				return "[]"
			}
			return top.key
		}
		if len(chain) > 0 {
			return chain[len(chain)-1]
		}
		return ""
	}
	var tok strings.Builder
	i := 0
	// a block sequence item: "- " (any number) before the line's content
	for {
		t := strings.TrimLeft(text[i:], " \t")
		if strings.HasPrefix(t, "- ") || t == "-" {
			i = len(text) - len(t) + 1
			chain = append(chain, "[]")
			continue
		}
		i = len(text) - len(t)
		break
	}
	for ; i < len(text); i++ {
		c := text[i]
		// a quote or bracket starts a quoted scalar or a collection only
		// where a scalar starts: "a [b" and "it's" are plain text
		atStart := strings.TrimSpace(tok.String()) == ""
		switch {
		case c == '\n' && len(stack) == 0:
			return flowCtx{}, true // the block line ended: no collection spans to the cursor
		case (c == '"' || c == '\'') && atStart:
			j := i + 1
			for j < len(text) && text[j] != c {
				if c == '"' && text[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(text) {
				return flowFrameCtx(stack, chain), true // the cursor is inside a quoted scalar
			}
			tok.WriteString(text[i+1 : j])
			i = j
		case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n'):
			for i+1 < len(text) && text[i+1] != '\n' {
				i++
			}
		case (c == '{' || c == '[') && atStart:
			stack = append(stack, flowFrame{seq: c == '[', owner: owner()})
			tok.Reset()
		case (c == '}' || c == ']') && len(stack) > 0:
			if stack[len(stack)-1].seq != (c == ']') {
				return flowCtx{}, false
			}
			stack = stack[:len(stack)-1]
			tok.Reset()
		case c == ',' && len(stack) > 0:
			if top := &stack[len(stack)-1]; !top.seq {
				top.key = ""
			}
			tok.Reset()
		case c == ':' && (i+1 == len(text) || strings.ContainsRune(" \t\n", rune(text[i+1])) || (len(stack) > 0 && strings.ContainsRune(",[]{}", rune(text[i+1])))):
			key := strings.TrimSpace(tok.String())
			tok.Reset()
			if n := len(stack); n > 0 {
				if !stack[n-1].seq {
					stack[n-1].key = key
				}
			} else {
				chain = append(chain, key)
			}
		default:
			tok.WriteByte(c)
		}
	}
	return flowFrameCtx(stack, chain), true
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
