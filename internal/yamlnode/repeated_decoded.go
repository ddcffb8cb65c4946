package yamlnode

import (
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// mergedBeside is how a key written beside a merge key that brings it
// into a struct is given twice (firstDecodedRepeat).
const mergedBeside = "merged beside"

// firstDecodedRepeat finds the key a decoder reading root into a value of
// type t gets twice in one mapping without its being written twice there:
// from two mappings of one merged list (`<<: [*a, *b]`: second is the
// later mapping's key), through an alias used as a key (`*k: v` beside
// the key `&k k` it names: second is the alias), or, into a struct, both
// written and merged (`{<<: {k: 1}, k: 2}`). Only what such a decoder
// reads is searched: below a struct, the keys its fields name (yaml tags,
// inline structs); below a map, a slice or any other type, everything. So
// a repeat inside a key the type does not know is no repeat, as in a
// decoder that skips that key (upstream's goccy/go-yaml). The first such
// key in the decoder's order wins; (nil, nil) when none. Each (node, type)
// pair is searched once, each merged list checked and walked once per
// type, and each merged mapping's keys read once, so aliases cannot
// multiply the work. how is mergedBeside for a key both written and merged
// into a struct, else "".
func firstDecodedRepeat(root *yaml.Node, t reflect.Type) (second, first *yaml.Node, how string) {
	s := newDecodedSearch()
	s.walk(root, t)
	return s.second, s.first, s.how
}

func newDecodedSearch() *decodedSearch {
	return &decodedSearch{seen: map[decodedVisit]bool{}, merged: map[decodedVisit]bool{}, lists: map[*yaml.Node]bool{}}
}

type decodedVisit struct {
	n *yaml.Node
	t reflect.Type
}

type decodedSearch struct {
	seen map[decodedVisit]bool
	// merged: the merged lists whose mappings were walked as a mapping
	// of that type reads them; lists: those mergedListRepeat checked
	merged        map[decodedVisit]bool
	lists         map[*yaml.Node]bool
	keys          map[*yaml.Node]map[string]int            // keysOf's
	fields        map[reflect.Type]map[string]reflect.Type // fieldsOf's
	second, first *yaml.Node
	how           string
	steps         int // keys and elements looked at, for tests
}

// nodeType is yaml.Node: a field of it reads everything below.
var nodeType = reflect.TypeOf(yaml.Node{})

func (s *decodedSearch) walk(n *yaml.Node, t reflect.Type) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nodeType {
		t = nil
	}
	// an alias reads its anchor's node (with its own positions)
	n = Deref(n)
	if n == nil || s.second != nil {
		return
	}
	// a node is reached twice only through an alias, so only an anchored
	// one can be: the others are walked once without a note
	if n.Anchor != "" {
		if s.seen[decodedVisit{n, t}] {
			return
		}
		s.seen[decodedVisit{n, t}] = true
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			s.walk(c, t)
		}
	case yaml.SequenceNode:
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for _, c := range n.Content {
			s.walk(c, elem)
		}
	case yaml.MappingNode:
		if second, first := s.mergedOrAliasRepeat(n); second != nil {
			s.second, s.first = second, first
			return
		}
		if t != nil && t.Kind() == reflect.Struct {
			// a struct's decoder refuses a key both written and merged
			if second, first := s.writtenAndMerged(n); second != nil {
				s.second, s.first, s.how = second, first, mergedBeside
				return
			}
		}
		s.mapping(n, t)
	}
}

// mapping walks the values of the mapping n the type t reads.
func (s *decodedSearch) mapping(n *yaml.Node, t reflect.Type) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Tag == "!!merge" {
			// the merged mappings are read as this one is
			src := Deref(v)
			if src != nil && src.Kind == yaml.SequenceNode {
				if s.merged[decodedVisit{src, t}] {
					continue
				}
				s.merged[decodedVisit{src, t}] = true
				for _, e := range src.Content {
					s.steps++
					s.walk(e, t)
				}
			} else {
				s.walk(v, t)
			}
			continue
		}
		if t == nil || t.Kind() != reflect.Struct {
			var elem reflect.Type
			if t != nil && t.Kind() == reflect.Map {
				elem = t.Elem()
			}
			s.walk(v, elem)
			continue
		}
		if kd := Deref(k); kd != nil {
			if ft, ok := s.fieldsOf(t)[kd.Value]; ok {
				s.walk(v, ft)
			}
		}
	}
}

// fieldsOf is the type of each field of struct t by its yaml name,
// inline structs' fields too (the first field in field order wins, as a
// decoder's): t's tags are read once per search, not once per key.
func (s *decodedSearch) fieldsOf(t reflect.Type) map[string]reflect.Type {
	if m, ok := s.fields[t]; ok {
		return m
	}
	m := map[string]reflect.Type{}
	addFields(m, t)
	if s.fields == nil {
		s.fields = map[reflect.Type]map[string]reflect.Type{}
	}
	s.fields[t] = m
	return m
}

// addFields files in m each field of struct t under its yaml name, unless
// an earlier field has that name, searching inline structs in place.
func addFields(m map[string]reflect.Type, t reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		if strings.Contains(","+opts+",", ",inline,") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				addFields(m, ft)
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		if _, ok := m[name]; !ok {
			m[name] = f.Type
		}
	}
}

// mergedOrAliasRepeat finds, in the mapping n, the first key that an
// alias key repeats (or that repeats an alias key), or the first key of a
// merged list's mapping that an earlier mapping of the list has written
// (each mapping's own written keys: what it merges itself does not count).
// Two written keys are FirstRepeatedKey's.
func (s *decodedSearch) mergedOrAliasRepeat(n *yaml.Node) (second, first *yaml.Node) {
	var keys map[string]*yaml.Node
	// without an alias key no repeat here is this search's: only merges
	aliasKeys, _ := keyKinds(n)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		s.steps++
		if k.Tag == "!!merge" {
			// a list found without a repeat is none the next time (one
			// with a repeat ends the search)
			if src := Deref(n.Content[i+1]); !s.lists[src] {
				s.lists[src] = true
				if second, first := s.mergedListRepeat(src); second != nil {
					return second, first
				}
			}
			continue
		}
		d := Deref(k)
		if !aliasKeys || d == nil || d.Kind != yaml.ScalarNode {
			continue
		}
		if keys == nil {
			keys = map[string]*yaml.Node{}
		}
		if prev := keys[d.Value]; prev != nil {
			if prev.Kind == yaml.AliasNode || k.Kind == yaml.AliasNode {
				return k, prev
			}
			continue
		}
		keys[d.Value] = k
	}
	return nil, nil
}

// keyKinds reports whether a key of the mapping n is an alias, and whether
// one is a merge key (<<).
func keyKinds(n *yaml.Node) (alias, merge bool) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		alias = alias || k.Kind == yaml.AliasNode
		merge = merge || k.Tag == "!!merge"
	}
	return alias, merge
}

// mergedListRepeat finds the first key of a mapping of the merged list src
// that an earlier mapping of it has written (nil when src is no list).
func (s *decodedSearch) mergedListRepeat(src *yaml.Node) (second, first *yaml.Node) {
	if src == nil || src.Kind != yaml.SequenceNode {
		return nil, nil
	}
	from := map[string]*yaml.Node{}
	for _, e := range src.Content {
		el := Deref(e)
		if el == nil || el.Kind != yaml.MappingNode {
			continue
		}
		s.steps += len(el.Content)
		for j := 0; j+1 < len(el.Content); j += 2 {
			if k := el.Content[j]; k.Kind == yaml.ScalarNode && k.Tag != "!!merge" && from[k.Value] != nil {
				return k, from[k.Value]
			}
		}
		for j := 0; j+1 < len(el.Content); j += 2 {
			if k := el.Content[j]; k.Kind == yaml.ScalarNode && k.Tag != "!!merge" && from[k.Value] == nil {
				from[k.Value] = k
			}
		}
	}
	return nil, nil
}

// writtenAndMerged finds, in the mapping n, the first key both written in
// n and written in a mapping its merge key merges (`{<<: {a: 1}, a: 2}`,
// either order): first is the earlier key, second the later key or, when
// the later is merged, its value. A merged mapping's keys are read once
// (keysOf), however many mappings merge it.
func (s *decodedSearch) writtenAndMerged(n *yaml.Node) (second, first *yaml.Node) {
	if _, merge := keyKinds(n); !merge {
		return nil, nil // nothing merged, nothing both
	}
	var written map[string]*yaml.Node
	var merged []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Tag == "!!merge" {
			src := Deref(n.Content[i+1])
			if src == nil || src.Kind != yaml.MappingNode {
				continue
			}
			keys := s.keysOf(src)
			// the first of src's keys, in its order, written before
			best := -1
			for name, prev := range written {
				if j, ok := keys[name]; ok && (best < 0 || j < best) {
					best, first = j, prev
				}
			}
			if best >= 0 {
				// upstream's decoder names the merged key's value
				return src.Content[best+1], first
			}
			merged = append(merged, src)
			continue
		}
		d := Deref(k)
		if d == nil || d.Kind != yaml.ScalarNode {
			continue
		}
		for m := len(merged) - 1; m >= 0; m-- {
			if j, ok := s.keysOf(merged[m])[d.Value]; ok {
				return k, merged[m].Content[j]
			}
		}
		if written == nil {
			written = map[string]*yaml.Node{}
		}
		written[d.Value] = k
	}
	return nil, nil
}

// keysOf is the index in src.Content of each plain key of the mapping src
// (its first place), read once per search.
func (s *decodedSearch) keysOf(src *yaml.Node) map[string]int {
	if keys, ok := s.keys[src]; ok {
		return keys
	}
	keys := map[string]int{}
	for j := 0; j+1 < len(src.Content); j += 2 {
		mk := Deref(src.Content[j])
		if mk == nil || mk.Kind != yaml.ScalarNode || mk.Tag == "!!merge" {
			continue
		}
		if _, dup := keys[mk.Value]; !dup {
			keys[mk.Value] = j
		}
	}
	s.steps += len(src.Content)
	if s.keys == nil {
		s.keys = map[*yaml.Node]map[string]int{}
	}
	s.keys[src] = keys
	return keys
}
