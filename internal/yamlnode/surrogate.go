package yamlnode

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/lazyre"
)

// The existing engine reads a UTF-16 surrogate pair written as two `\u`
// escapes in a double-quoted scalar (`"\ud83d\udc4d"`, as JSON encoders
// write a character past U+FFFF) as that one character; yaml.v3 refuses
// each half ("found invalid Unicode character escape code"). The mask
// writes each pair as the one `\UXXXXXXXX` escape yaml.v3 reads (two
// characters shorter: a later column on that line reads two less), the
// unmask writes the pair back as it was where a backslash is no escape (a
// plain, single-quoted or block scalar, a comment). A lone half stays
// refused. Conformance golden fixture-surrogate-pairs under pkg/engine.

// surrogatePair is an escaped high surrogate followed by an escaped low one.
var surrogatePair = &lazyre.Regexp{Expr: `\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}`}

// MaskSurrogatePairs returns data with every escaped surrogate pair written
// as one `\U` escape and what to undo, when data holds one and the mask can
// be undone (one character's pair written two ways, or also as that `\U`
// escape); else data and nil. A pair whose first backslash is itself
// escaped (`\\ud83d…`) is text and stays.
func MaskSurrogatePairs(data []byte) ([]byte, map[string]string) {
	if !bytes.Contains(data, []byte(`\u`)) {
		return data, nil
	}
	undo := map[string]string{}
	var out bytes.Buffer
	last := 0
	for _, m := range surrogatePair.Get().FindAllIndex(data, -1) {
		if escapedAt(data, m[0]) {
			continue
		}
		pair := string(data[m[0]:m[1]])
		hi, _ := strconv.ParseUint(pair[2:6], 16, 32)
		lo, _ := strconv.ParseUint(pair[8:12], 16, 32)
		r := 0x10000 + (hi-0xd800)<<10 + (lo - 0xdc00)
		esc := fmt.Sprintf(`\U%08X`, r)
		if strings.ToLower(pair) == pair {
			esc = fmt.Sprintf(`\U%08x`, r) // the pair's own case, so both spellings undo
		}
		if was, ok := undo[esc]; ok && was != pair || bytes.Contains(data, []byte(esc)) {
			return data, nil // written two ways, or as the \U escape already: not undoable
		}
		undo[esc] = pair
		out.Write(data[last:m[0]])
		out.WriteString(esc)
		last = m[1]
	}
	if len(undo) == 0 {
		return data, nil
	}
	out.Write(data[last:])
	return out.Bytes(), undo
}

// escapedAt tells that the backslash at data[i] follows an odd run of
// backslashes, so it is written text, not an escape.
func escapedAt(data []byte, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// UnmaskSurrogatePairs undoes MaskSurrogatePairs in the tree of the masked
// text: a double-quoted scalar keeps the character it decoded.
func UnmaskSurrogatePairs(n *yaml.Node, undo map[string]string) {
	if n == nil || len(undo) == 0 {
		return
	}
	back := func(s string) string {
		for esc, pair := range undo {
			s = strings.ReplaceAll(s, esc, pair)
		}
		return s
	}
	if n.Kind == yaml.ScalarNode && n.Style&yaml.DoubleQuotedStyle == 0 {
		n.Value = back(n.Value)
	}
	for _, c := range []*string{&n.HeadComment, &n.LineComment, &n.FootComment} {
		*c = back(*c)
	}
	for _, c := range n.Content {
		UnmaskSurrogatePairs(c, undo)
	}
}
