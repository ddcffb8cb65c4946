package lint

import "strings"

// tplRead is one read of a template root inside a {{ }} or {% %} tag.
type tplRead struct {
	off  int    // byte offset of the root's name in the scalar
	text string // the read as written: slots.text, world.title, inbox
	root string // slots, event, inbox, result or world
	key  string // the first member (for root world, the key)
	tag  string // the tag holding it, shortened for messages
	// dotted: the key follows as .key, the form the import fold rewrites
	// (world["k"] and world?.k it leaves as written)
	dotted bool
}

// templateReads lists the reads of untrusted roots and of world keys by
// name in the tags of src, in order. The condition of an {{ if }},
// {{ else if }}, {% if %} or {% elif %} is skipped: it chooses text, it
// does not put its value into the output.
func templateReads(src string) []tplRead { return tagReads(src, false) }

// tagReads is templateReads, with the conditions' reads when conditions.
func tagReads(src string, conditions bool) []tplRead {
	var out []tplRead
	for i := 0; i < len(src); {
		j := strings.IndexByte(src[i:], '{')
		if j < 0 {
			break
		}
		i += j
		rest := src[i:]
		if len(rest) < 2 || rest[1] != '{' && rest[1] != '%' && rest[1] != '#' {
			i++
			continue
		}
		closer := map[byte]string{'{': "}}", '%': "%}", '#': "#}"}[rest[1]]
		n := tagLen(rest, closer)
		if rest[1] != '#' {
			inner := strings.TrimSuffix(rest[2:n], closer)
			if conditions || !conditionTag(inner, rest[1] == '%') {
				out = innerReads(out, inner, i+2, shortTag(rest[:n]))
			}
		}
		i += n
	}
	return out
}

// tagLen is the length of the tag at the start of s up to its closer
// (quoted strings skipped), or of s when it is not closed.
func tagLen(s, closer string) int {
	for k := 2; k < len(s); {
		if e := quotedEnd(s, k); e != k {
			k = e
			continue
		}
		if strings.HasPrefix(s[k:], closer) {
			return k + len(closer)
		}
		k++
	}
	return len(s)
}

// quotedEnd is, when s[k] opens a quoted string, the index just past its
// closing quote (len(s) when it is not closed), else k.
func quotedEnd(s string, k int) int {
	q := s[k]
	if q != '"' && q != '\'' && q != '`' {
		return k
	}
	for k++; k < len(s); k++ {
		if s[k] == '\\' {
			k++
		} else if s[k] == q {
			return k + 1
		}
	}
	return len(s)
}

// conditionTag reports a tag that only tests a condition: a kitsoki
// {{ if c }} or {{ else if c }} (not an expr-lang `if c { a } else { b }`),
// a pongo2 {% if %} or {% elif %}.
func conditionTag(inner string, block bool) bool {
	t := strings.TrimSpace(strings.Trim(strings.TrimSpace(inner), "-"))
	word, rest, _ := strings.Cut(t, " ")
	rest = strings.TrimSpace(rest)
	if block {
		return word == "if" || word == "elif"
	}
	if strings.HasSuffix(t, "}") {
		return false
	}
	return word == "if" || word == "else" && strings.HasPrefix(rest, "if ")
}

// shortTag is a tag for a message, cut after 60 bytes.
func shortTag(tag string) string {
	tag = strings.ReplaceAll(tag, "\n", " ")
	if len(tag) > 60 {
		k := 57
		for k > 0 && tag[k]&0xC0 == 0x80 {
			k--
		}
		return tag[:k] + "..."
	}
	return tag
}

// innerReads appends the root reads of one tag's inner text (at offset
// base in its scalar); quoted strings are skipped.
func innerReads(out []tplRead, inner string, base int, tag string) []tplRead {
	for k := 0; k < len(inner); {
		if e := quotedEnd(inner, k); e != k {
			k = e
			continue
		}
		if !identByte(inner[k]) || k > 0 && (identByte(inner[k-1]) || inner[k-1] == '.') {
			k++
			continue
		}
		end := k
		for end < len(inner) && identByte(inner[end]) {
			end++
		}
		word, text := inner[k:end], inner[k:end]
		key, _ := memberAfter(inner[end:])
		for at := end; ; {
			m, n := memberAfter(inner[at:])
			if m == "" {
				break
			}
			text, at = text+"."+m, at+n
		}
		if word == "world" && key != "" || untrustedRoots[word] != "" {
			out = append(out, tplRead{off: base + k, text: text, root: word, key: key, tag: tag, dotted: strings.HasPrefix(inner[end:], ".")})
		}
		k = end
	}
	return out
}

// memberAfter is the member name s starts with: .name, ?.name, ["name"]
// or ['name'] ("" when none), and the length of that member access.
func memberAfter(s string) (name string, n int) {
	q := 0
	if strings.HasPrefix(s, "?") {
		q = 1
	}
	t := s[q:]
	switch {
	case strings.HasPrefix(t, "."):
		k := 1
		for k < len(t) && identByte(t[k]) {
			k++
		}
		if k > 1 && (t[1] < '0' || t[1] > '9') {
			return t[1:k], q + k
		}
	case strings.HasPrefix(t, `["`), strings.HasPrefix(t, `['`):
		if end := strings.IndexByte(t[2:], t[1]); end > 0 && strings.HasPrefix(t[2+end+1:], "]") {
			return t[2 : 2+end], q + 2 + end + 2
		}
	}
	return "", 0
}
