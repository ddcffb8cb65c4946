package lint

import (
	"slices"

	"kitsoki/pkg/story"
)

// foldScope is one place a story takes in the folded tree: the top story,
// or a child under the chain of import aliases above it (a child imported
// twice has two). The fold (pkg/fold rewriter) prefixes the world keys a
// story declares with <alias>__ per import above it, so the same name in
// two stories is one key only where neither declares it.
type foldScope struct {
	st     *story.Story
	prefix string     // "" at the top, "a__b__" for b imported by a
	up     *foldScope // the importer's scope; nil at the top
}

// key is the folded world key a world.<name> read or a write of name in
// this scope reaches, as the fold rewrites it: the first scope up the
// chain that declares name (a key of its own, or a child's lifted
// <alias>__k) prefixes it; a reserved key, or one no scope declares,
// stays bare (the top story's name).
func (sc *foldScope) key(name string) string {
	if o := sc.owner(name); o != nil {
		return o.prefix + name
	}
	return name
}

// owner is the first scope up sc's chain that declares name (a key of its
// own, or a child's lifted <alias>__k), nil for a reserved key or one no
// scope declares.
func (sc *foldScope) owner(name string) *foldScope {
	if story.IsReservedWorld(name) { // the fold never prefixes them (story-format §1.2)
		return nil
	}
	for s := sc; s != nil; s = s.up {
		if v := s.st.Var(name); v != nil || lifted(s.st, "world", name) {
			return s
		}
	}
	return nil
}

// readKey is the folded key of a template's world read: world.<k> is
// rewritten as key does; world["k"] and world?.k are left as written by
// the fold and so name the bare key.
func (sc *foldScope) readKey(r tplRead) string {
	if !r.dotted {
		return r.key
	}
	return sc.key(r.key)
}

// child is the scope of sc's import alias, nil when it did not load.
func (sc *foldScope) child(alias string, scopes map[*story.Story][]*foldScope) *foldScope {
	im := sc.st.Imports[alias]
	if im == nil || im.Child == nil {
		return nil
	}
	for _, c := range scopes[im.Child] {
		if c.up == sc && c.prefix == sc.prefix+alias+"__" {
			return c
		}
	}
	return nil
}

// foldScopes lists the scopes of every story of top's import tree, in
// import order, depth first. Past story.MaxFoldImports (a tree the fold
// refuses) the rest of the tree is not walked (complete is false); a story
// it leaves without a scope gets one through its first importer's first.
func foldScopes(top *story.Story) (scopes map[*story.Story][]*foldScope, complete bool) {
	scopes = map[*story.Story][]*foldScope{}
	n := 0
	var walk func(sc *foldScope, depth int)
	walk = func(sc *foldScope, depth int) {
		scopes[sc.st] = append(scopes[sc.st], sc)
		n++
		for _, alias := range sc.st.ImportOrder {
			im := sc.st.Imports[alias]
			if im.Child == nil || n > story.MaxFoldImports || depth > story.MaxFoldImports {
				continue
			}
			walk(&foldScope{st: im.Child, prefix: sc.prefix + alias + "__", up: sc}, depth+1)
		}
	}
	walk(&foldScope{st: top}, 0)
	complete = n <= story.MaxFoldImports
	var first func(st *story.Story) *foldScope
	first = func(st *story.Story) *foldScope {
		if l := scopes[st]; len(l) > 0 {
			return l[0]
		}
		imp := st.Importer()
		if imp == nil {
			return nil
		}
		up := first(imp)
		if up == nil {
			return nil
		}
		i := slices.IndexFunc(imp.ImportOrder, func(a string) bool { return imp.Imports[a].Child == st })
		if i < 0 {
			return nil
		}
		sc := &foldScope{st: st, prefix: up.prefix + imp.ImportOrder[i] + "__", up: up}
		scopes[st] = append(scopes[st], sc)
		return sc
	}
	for _, ch := range top.Children() {
		first(ch)
	}
	return scopes, complete
}
