package flowtest

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// edit replaces the bytes [start, end) of a fixture file with text.
type edit struct {
	start, end int
	text       string
}

// byStart orders edits by where they start.
func byStart(a, b edit) int { return cmp.Compare(a.start, b.start) }

// applyEdits returns src with the edits made (they must not overlap).
func applyEdits(src []byte, edits []edit) []byte {
	es := slices.SortedFunc(slices.Values(edits), byStart)
	var b bytes.Buffer
	at := 0
	for _, e := range es {
		b.Write(src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.Write(src[at:])
	return b.Bytes()
}

// errTemplate refuses a value written as a template.
var errTemplate = errors.New("the value is a {{ }} template; --update cannot tell what it should render to; edit it by hand")

// errMerge refuses a mapping that takes keys from a merge key (<<:).
var errMerge = errors.New("the mapping takes keys from a merge key (<<: *name); edit it by hand")

// step is one step of a path from a document's root: a mapping key or a
// sequence index.
type step struct {
	key   string
	index int // used when key == ""
	isKey bool
}

func keyStep(k string) step { return step{key: k, isKey: true} }
func indexStep(i int) step  { return step{index: i} }

// rewrite returns the edits that make node n (at path; flow: inside a
// flow collection) equal want, touching only what differs and keeping
// each value's style where it can; every replacement must read back as
// the document before, except want at path.
func (s *srcDoc) rewrite(n *yaml.Node, path []step, want any, flow bool) ([]edit, error) {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return nil, errAnchor
	}
	have, err := plainValue(n)
	if err != nil {
		return nil, err
	}
	if equal(have, want) {
		return nil, nil
	}
	if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, "{{") {
		return nil, errTemplate
	}
	inner := flow || n.Style&yaml.FlowStyle != 0
	switch n.Kind {
	case yaml.MappingNode:
		if m, ok := want.(map[string]any); ok && sameKeys(n, m) {
			var out []edit
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Tag == "!!merge" {
					return nil, errMerge
				}
				es, err := s.rewrite(n.Content[i+1], append(slices.Clip(path), keyStep(k.Value)), m[k.Value], inner)
				if err != nil {
					return nil, err
				}
				out = append(out, es...)
			}
			return out, nil
		}
	case yaml.SequenceNode:
		if l, ok := want.([]any); ok && len(l) == len(n.Content) {
			var out []edit
			for i, c := range n.Content {
				es, err := s.rewrite(c, append(slices.Clip(path), indexStep(i)), l[i], inner)
				if err != nil {
					return nil, err
				}
				out = append(out, es...)
			}
			return out, nil
		}
	}
	if hasAnchor(n) {
		return nil, errAnchor
	}
	cands, err := s.candidates(n, want, flow)
	if err != nil {
		return nil, err
	}
	for _, e := range cands {
		if s.check(e, path, want) {
			return []edit{e}, nil
		}
	}
	return nil, fmt.Errorf("cannot write %s there so that it reads back as that value; edit it by hand", clip(show(want)))
}

// hasAnchor reports whether n or anything below it is an anchor, alias or merge key.
func hasAnchor(n *yaml.Node) bool {
	return n.Kind == yaml.AliasNode || n.Anchor != "" || n.Tag == "!!merge" || slices.ContainsFunc(n.Content, hasAnchor)
}

// sameKeys reports whether mapping n holds exactly the keys of m, each once.
func sameKeys(n *yaml.Node, m map[string]any) bool {
	if len(n.Content)/2 != len(m) {
		return false
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if _, ok := m[k]; !ok || seen[k] || n.Content[i].Kind != yaml.ScalarNode {
			return false
		}
		seen[k] = true
	}
	return true
}

// candidates are the replacements of node n by want, best first. A
// block collection becoming a one-line value is written on its key's line
// ("v: x", not "v:" and x on the line below).
func (d *srcDoc) candidates(n *yaml.Node, want any, flow bool) ([]edit, error) {
	start, end, err := d.span(n, flow)
	if err != nil {
		return nil, err
	}
	block := n.Kind != yaml.ScalarNode && n.Style&yaml.FlowStyle == 0 && !flow
	var out []edit
	add := func(text string, ok bool) {
		if ok {
			out = append(out, edit{start, end, text})
		}
	}
	inline, hop := add, start
	if h, ok := d.afterKey(start); ok && block {
		hop = h
		inline = func(text string, ok bool) {
			if ok {
				out = append(out, edit{hop, end, " " + text})
			}
		}
	}
	switch w := want.(type) {
	case map[string]any, []any:
		if block && !emptyCollection(w) {
			add(blockText(w, d.column(start)))
		}
		inline(flowText(w))
	case string:
		if n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			if indent, e, err := blockScalarBody(d.src, start); err == nil {
				body := lineEnd(d.src, start)
				if txt, ok := blockLines(w, indent, headerChomp(d.src[start:body]), n.Style&yaml.FoldedStyle != 0); ok {
					out = append(out, edit{body, e, txt})
				}
			}
		}
		switch {
		case n.Kind == yaml.ScalarNode && n.Style&yaml.SingleQuotedStyle != 0:
			add(singleQuoted(w))
		case n.Kind == yaml.ScalarNode && n.Style&yaml.DoubleQuotedStyle != 0:
		default:
			inline(plainText(w, flow))
		}
		if !flow && strings.Contains(w, "\n") {
			indent := d.keyColumn(hop) + 2
			chomp := "|-"
			if strings.HasSuffix(w, "\n") {
				chomp = "|"
			}
			if txt, ok := blockLines(w, indent, chomp, false); ok {
				inline(chomp+txt, true)
			}
		}
		inline(doubleQuoted(w))
	default:
		inline(plainText(w, flow))
	}
	return out, nil
}

// afterKey is the offset just after the "key:" whose value starts at off
// on a later line, only blanks between them; false otherwise (a comment
// between them, or a '#' anywhere before the colon on its line).
func (d *srcDoc) afterKey(off int) (int, bool) {
	i, crossed := off-1, false
	for i >= 0 && strings.IndexByte(" \t\r\n", d.src[i]) >= 0 {
		crossed = crossed || d.src[i] == '\n'
		i--
	}
	if i < 0 || !crossed || d.src[i] != ':' {
		return 0, false
	}
	if ls := bytes.LastIndexByte(d.src[:i], '\n') + 1; bytes.IndexByte(d.src[ls:i], '#') >= 0 {
		return 0, false // the colon may end a comment ("v:  # note:")
	}
	return i + 1, true
}

func emptyCollection(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		return len(t) == 0
	case []any:
		return len(t) == 0
	}
	return false
}

// column is the character column (0-based) of offset off on its line.
func (d *srcDoc) column(off int) int {
	ls := bytes.LastIndexByte(d.src[:off], '\n') + 1
	return utf8.RuneCount(d.src[ls:off])
}

// keyColumn is the column of the first key on the line holding off.
func (d *srcDoc) keyColumn(off int) int {
	ls := bytes.LastIndexByte(d.src[:off], '\n') + 1
	i := ls
	for i < off && (d.src[i] == ' ' || (d.src[i] == '-' && i+1 < len(d.src) && d.src[i+1] == ' ')) {
		i++
	}
	return i - ls
}

// headerChomp is a block scalar header's chomping: "|-" or "|".
func headerChomp(header []byte) string {
	if bytes.Contains(bytes.SplitN(header, []byte("#"), 2)[0], []byte("-")) {
		return "|-"
	}
	return "|"
}

// blockLines is the indented body of a block scalar holding w; false
// when the chomping (or folding) cannot give w back.
func blockLines(w string, indent int, chomp string, folded bool) (string, bool) {
	body := w
	switch chomp {
	case "|-":
		if strings.HasSuffix(w, "\n") {
			return "", false
		}
	default:
		if !strings.HasSuffix(w, "\n") || strings.HasSuffix(w, "\n\n") {
			return "", false
		}
		body = strings.TrimSuffix(w, "\n")
	}
	if body == "" || (folded && strings.Contains(body, "\n")) {
		return "", false
	}
	pad := strings.Repeat(" ", indent)
	var b strings.Builder
	for i, l := range strings.Split(body, "\n") {
		if strings.ContainsFunc(l, func(r rune) bool { return r != '\t' && !unicode.IsPrint(r) }) {
			return "", false
		}
		if i == 0 && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) {
			return "", false // would need an indentation indicator
		}
		if strings.TrimRight(l, " \t") != l {
			return "", false
		}
		b.WriteByte('\n')
		if l != "" {
			b.WriteString(pad + l)
		}
	}
	return b.String(), true
}

// plainText is w as a plain scalar (quoted when plain would read as
// something else); in a flow collection, as an item of one.
func plainText(w any, flow bool) (string, bool) {
	if flow {
		t, ok := flowText([]any{w}) // w, a scalar, as the one item of a list
		if !ok || !strings.HasPrefix(t, "[") || !strings.HasSuffix(t, "]") {
			return "", false
		}
		return t[1 : len(t)-1], true
	}
	b, err := yaml.Marshal(w)
	if err != nil {
		return "", false
	}
	t := strings.TrimSuffix(string(b), "\n")
	if strings.Contains(t, "\n") {
		return "", false
	}
	return t, true
}

// singleQuoted is w in single quotes, when it fits on one line.
func singleQuoted(w string) (string, bool) {
	if strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return "", false
	}
	return "'" + strings.ReplaceAll(w, "'", "''") + "'", true
}

// yamlEscapes are the short escapes doubleQuoted writes.
var yamlEscapes = map[rune]string{'"': `\"`, '\\': `\\`, '\n': `\n`, '\t': `\t`, '\r': `\r`}

// doubleQuoted is w in double quotes with YAML escapes, on one line.
func doubleQuoted(w string) (string, bool) {
	if !utf8.ValidString(w) {
		return "", false
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range w {
		esc, short := yamlEscapes[r]
		switch {
		case short:
			b.WriteString(esc)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case !unicode.IsPrint(r) && r != ' ':
			if r > 0xffff {
				fmt.Fprintf(&b, `\U%08x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String(), true
}

// flowText is a collection written on one line in flow style.
func flowText(w any) (string, bool) {
	var n yaml.Node
	if err := n.Encode(w); err != nil {
		return "", false
	}
	setFlow(&n)
	b, err := yaml.Marshal(&n)
	if err != nil {
		return "", false
	}
	t := strings.TrimSuffix(string(b), "\n")
	return t, !strings.Contains(t, "\n")
}

func setFlow(n *yaml.Node) {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		n.Style = yaml.FlowStyle
	}
	for _, c := range n.Content {
		setFlow(c)
	}
}

// blockText is a collection in block style, its lines after the first indented to col.
func blockText(w any, col int) (string, bool) {
	b, err := encodeYAML(w)
	if err != nil {
		return "", false
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	pad := strings.Repeat(" ", col)
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = pad + lines[i]
		}
	}
	return strings.Join(lines, "\n"), true
}

// check reports whether the file with e reads back as before, except want at path.
func (s *srcDoc) check(e edit, path []step, want any) bool {
	before, ok := docValues(s.src)
	if !ok || s.index >= len(before) {
		return false
	}
	after, ok := docValues(applyEdits(s.src, []edit{e}))
	return ok && setPath(&before[s.index], path, want) && slices.EqualFunc(before, after, equal)
}

// docValues decodes every "\n---" piece of a file as plain values; false
// when one does not parse.
func docValues(src []byte) ([]any, bool) {
	var out []any
	for _, pc := range split(src) {
		var n yaml.Node
		if err := yamlnode.UnmarshalPlain(pc.src, &n); err != nil {
			return nil, false
		}
		v, err := plainValue(&n)
		if err != nil {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// setPath sets the value at path inside *v to want.
func setPath(v *any, path []step, want any) bool {
	if len(path) == 0 {
		*v = want
		return true
	}
	switch t := (*v).(type) {
	case map[string]any:
		if !path[0].isKey {
			return false
		}
		x, ok := t[path[0].key]
		if !ok {
			return false
		}
		if !setPath(&x, path[1:], want) {
			return false
		}
		t[path[0].key] = x
		return true
	case []any:
		if path[0].isKey || path[0].index < 0 || path[0].index >= len(t) {
			return false
		}
		return setPath(&t[path[0].index], path[1:], want)
	}
	return false
}
