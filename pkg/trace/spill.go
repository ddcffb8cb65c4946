package trace

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"kitsoki/internal/jsonvalue"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"unicode/utf8"
)

// spill moves every string over blobThreshold to a blob file, then the
// largest containers while the payload is over the line bound. The
// payload is rewritten as encoding/json writes it decoded with UseNumber
// (object keys sorted, a repeated key's last value, no HTML escaping),
// but without decoding it: a value already in that form is kept as the
// slice of payload it is, so a huge string is hashed and written to its
// blob from where it lies, never decoded and marshalled again.
func (w *Writer) spill(payload json.RawMessage) (json.RawMessage, error) {
	i := skipSpace(payload, 0)
	root, _, err := parseSpill(payload, i, 0)
	if err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	if root, err = w.spillStrings(root); err != nil {
		return nil, err
	}
	root.measure()
	// Containers, largest first, until the line fits (with room for the
	// envelope).
	budget := w.opt.MaxLineBytes - 4096
	for root.size > budget {
		best := root.largest(nil)
		if best == nil || best.size <= blobThreshold {
			break // nothing left to move: the caller refuses the event
		}
		ref, err := w.blobRef(best.appendTo(make([]byte, 0, best.size)), ".json")
		if err != nil {
			return nil, err
		}
		best.replace(ref)
	}
	return root.appendTo(make([]byte, 0, root.size)), nil
}

// spillNode is one JSON value of a payload being spilled, held as its
// encoding in the form spill writes.
type spillNode struct {
	kind byte // '{', '[', '"' (a string), 'r' (a blob reference), '0' (a number, true, false or null)
	// enc is the encoding of a string, reference or literal.
	enc []byte
	// raw is a string as the payload spells it (quotes included) and
	// escaped whether it holds a backslash or U+2028/U+2029, which
	// encoding/json writes escaped: then enc is set only once decoded.
	raw     []byte
	escaped bool
	names   []string // an object's keys, sorted
	keys    [][]byte // their encodings
	kids    []*spillNode
	size    int // the encoding's length (after measure)
	parent  *spillNode
	idx     int // index in parent.kids
	refLike bool
}

// errSpillSyntax is an unexpected byte: the payload was checked to be
// valid JSON before, so this means a bug.
var errSpillSyntax = errors.New("not valid JSON where a blob could be taken from it")

// parseSpill reads the JSON value at b[i], returning it and the index
// after it.
func parseSpill(b []byte, i, depth int) (*spillNode, int, error) {
	if depth > maxScanDepth {
		return nil, 0, fmt.Errorf("nested deeper than %d arrays and objects, which a reader refuses; flatten the value", maxScanDepth)
	}
	if i >= len(b) {
		return nil, 0, errSpillSyntax
	}
	switch c := b[i]; {
	case c == '"':
		end, esc, ok := skipString(b, i)
		if !ok {
			return nil, 0, errSpillSyntax
		}
		raw := b[i:end]
		n := &spillNode{kind: '"', raw: raw, escaped: esc || needsEscape(raw)}
		if !n.escaped {
			n.enc = raw
		} else if len(raw)-2 <= blobThreshold { // small: its form now
			s, err := decodeString(raw)
			if err != nil {
				return nil, 0, err
			}
			if n.enc, err = jsonvalue.MarshalNoHTML(s); err != nil {
				return nil, 0, err
			}
		}
		return n, end, nil
	case c == '{':
		return parseObject(b, i, depth)
	case c == '[':
		n := &spillNode{kind: '['}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			return n, i + 1, nil
		}
		for {
			kid, next, err := parseSpill(b, i, depth+1)
			if err != nil {
				return nil, 0, err
			}
			n.adopt(kid)
			var done, ok bool
			if i, done, ok = nextMember(b, next, ']'); !ok {
				return nil, 0, errSpillSyntax
			}
			if done {
				return n, i, nil
			}
		}
	default: // a number, true, false or null
		end, ok := skipValue(b, i, depth)
		if !ok {
			return nil, 0, errSpillSyntax
		}
		return &spillNode{kind: '0', enc: b[i:end]}, end, nil
	}
}

// parseObject reads the object at b[i]: its members sorted by key, a
// repeated key keeping its last value (as a decoded map does).
func parseObject(b []byte, i, depth int) (*spillNode, int, error) {
	type member struct {
		name string
		key  []byte
		val  *spillNode
	}
	var ms []member
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return &spillNode{kind: '{'}, i + 1, nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, 0, errSpillSyntax
		}
		end, esc, ok := skipString(b, i)
		if !ok {
			return nil, 0, errSpillSyntax
		}
		m := member{name: string(b[i+1 : end-1]), key: b[i:end]}
		if esc || needsEscape(m.key) {
			s, err := decodeString(m.key)
			if err != nil {
				return nil, 0, err
			}
			m.name = s
			if m.key, err = jsonvalue.MarshalNoHTML(s); err != nil {
				return nil, 0, err
			}
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, 0, errSpillSyntax
		}
		val, next, err := parseSpill(b, skipSpace(b, i+1), depth+1)
		if err != nil {
			return nil, 0, err
		}
		m.val = val
		ms = append(ms, m)
		var done bool
		if i, done, ok = nextMember(b, next, '}'); !ok {
			return nil, 0, errSpillSyntax
		}
		if done {
			break
		}
	}
	slices.SortStableFunc(ms, func(x, y member) int { return cmp.Compare(x.name, y.name) })
	n := &spillNode{kind: '{'}
	for j, m := range ms {
		if j+1 < len(ms) && ms[j+1].name == m.name {
			continue // a later value of the same key wins
		}
		n.names = append(n.names, m.name)
		n.keys = append(n.keys, m.key)
		n.adopt(m.val)
	}
	return n, i, nil
}

func (n *spillNode) adopt(kid *spillNode) {
	kid.parent, kid.idx = n, len(n.kids)
	n.kids = append(n.kids, kid)
}

// needsEscape reports whether the string raw (unescaped, valid UTF-8 as
// the payload was checked to be) holds a character encoding/json writes
// escaped: U+2028 or U+2029, or bytes that are not UTF-8.
func needsEscape(raw []byte) bool {
	return bytes.Contains(raw, []byte("\u2028")) || bytes.Contains(raw, []byte("\u2029")) || !utf8.Valid(raw)
}

func decodeString(raw []byte) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", err
	}
	return s, nil
}

// spillStrings replaces each string over blobThreshold below n (n
// included) by a reference to its blob file.
func (w *Writer) spillStrings(n *spillNode) (*spillNode, error) {
	if n.kind == '"' && (n.enc == nil || len(n.raw)-2 > blobThreshold) {
		if !n.escaped {
			return w.blobRef(n.raw[1:len(n.raw)-1], ".txt")
		}
		// Decoded by encoding/json into a buffer of its own, which
		// blobText moves to the blob before it is dropped.
		bt := blobText{w: w}
		if err := json.Unmarshal(n.raw, &bt); err != nil {
			return nil, err
		}
		if bt.err != nil || bt.ref != nil {
			return bt.ref, bt.err
		}
		enc, err := jsonvalue.MarshalNoHTML(bt.small)
		if err != nil {
			return nil, err
		}
		n.enc = enc
		return n, nil
	}
	for i, kid := range n.kids {
		r, err := w.spillStrings(kid)
		if err != nil {
			return nil, err
		}
		if r != kid {
			r.parent, r.idx = n, i
			n.kids[i] = r
		}
	}
	return n, nil
}

// blobText takes a JSON string decoded by encoding/json: over
// blobThreshold bytes, it stores it as a blob while the decoder's buffer
// is at hand; otherwise it keeps it as small.
type blobText struct {
	w     *Writer
	ref   *spillNode
	small string
	err   error
}

func (t *blobText) UnmarshalText(b []byte) error {
	if len(b) > blobThreshold {
		t.ref, t.err = t.w.blobRef(b, ".txt")
	} else {
		t.small = string(b)
	}
	return nil
}

// measure sets the encoded size of n and everything below it, and marks
// an object of two members one of which is the string $kitsoki_blob: it
// reads as a blob reference, so it is never moved to a blob.
func (n *spillNode) measure() int {
	switch n.kind {
	case '{', '[':
		n.size = 2 + max(len(n.kids)-1, 0)
		for i, kid := range n.kids {
			n.size += kid.measure()
			if n.kind == '{' {
				n.size += len(n.keys[i]) + 1
				if n.names[i] == blobKey && kid.kind == '"' && len(n.kids) == 2 {
					n.refLike = true
				}
			}
		}
	default:
		n.size = len(n.enc)
	}
	return n.size
}

// largest is the array or object below n to move to a blob next: the
// largest, or an inner one holding more than half of it (best is the
// choice so far among n's earlier siblings' subtrees). A container of at
// most blobThreshold bytes is never chosen, nor is anything inside it.
func (n *spillNode) largest(best *spillNode) *spillNode {
	for _, kid := range n.kids {
		if kid.kind != '{' && kid.kind != '[' || kid.refLike || kid.size <= blobThreshold {
			continue
		}
		if best == nil || kid.size > best.size {
			best = kid
		}
		// prefer a smaller inner container that holds most of it
		if sub := kid.largest(nil); sub != nil && sub.size*2 > best.size {
			best = sub
		}
	}
	return best
}

// replace puts ref in n's place, updating the sizes above it.
func (n *spillNode) replace(ref *spillNode) {
	p := n.parent
	ref.parent, ref.idx = p, n.idx
	p.kids[n.idx] = ref
	delta := ref.size - n.size
	for ; p != nil; p = p.parent {
		p.size += delta
	}
}

// appendTo appends n's encoding to out.
func (n *spillNode) appendTo(out []byte) []byte {
	switch n.kind {
	case '{', '[':
		open, end := byte('['), byte(']')
		if n.kind == '{' {
			open, end = '{', '}'
		}
		out = append(out, open)
		for i, kid := range n.kids {
			if i > 0 {
				out = append(out, ',')
			}
			if n.kind == '{' {
				out = append(append(out, n.keys[i]...), ':')
			}
			out = kid.appendTo(out)
		}
		return append(out, end)
	}
	return append(out, n.enc...)
}

// blobRef stores data once under agent-prompts/blob-<sha256><ext> and
// returns its reference {"$kitsoki_blob":PATH,"bytes":N}.
func (w *Writer) blobRef(data []byte, ext string) (*spillNode, error) {
	sum := sha256.Sum256(data)
	name := "blob-" + hex.EncodeToString(sum[:]) + ext
	p := filepath.Join(w.dir, promptsDir, name)
	if fi, err := os.Stat(p); err != nil || fi.Size() != int64(len(data)) {
		if err := w.writeSideFile(promptsDir, name, data); err != nil {
			return nil, fmt.Errorf("blob %s: %w", p, err)
		}
	}
	enc := []byte(`{"` + blobKey + `":"` + promptsDir + "/" + name + `","bytes":` + strconv.Itoa(len(data)) + "}")
	return &spillNode{kind: 'r', enc: enc, size: len(enc)}, nil
}
