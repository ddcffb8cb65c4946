package lint

import (
	"maps"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// ifaceHosts is ifaceHostNames of the top story st, worked out once per
// load: each story of the tree asks it of the top one. The slice is
// shared: clip it before appending.
func (l *sources) ifaceHosts(st *story.Story) []string {
	if l == nil {
		return ifaceHostNames(&sources{}, st)
	}
	if hs, ok := l.ifaces[st]; ok {
		return hs
	}
	if l.ifaces == nil {
		l.ifaces = map[*story.Story][]string{}
	}
	hs := ifaceHostNames(l, st)
	l.ifaces[st] = hs
	return hs
}

// ifaceHostNames lists the handler names upstream's load rewrites the
// import tree's `iface.<name>.<op>` invokes to, `<binding>.<op>`, which it
// adds to the top story's hosts: (reference story-format §2, stage 6,
// resolveAllInterfaces). A story that declares no hosts: yet calls an
// interface anywhere in its tree (a child imported with hosts: declared
// too) therefore has its allow-list checked. The binding is the highest
// importer's host_bindings: for the lifted name, else the interface's
// default:. An invoke in an inline effects: list or under a proposal's
// execute is not rewritten; one in a phase (upstream expands phases first)
// or an overrides: state is.
func ifaceHostNames(src *sources, top *story.Story) []string {
	var out []string
	seen := map[string]bool{}
	// a story reached again with the same bindings adds nothing new: an
	// import tree that repeats a child (l and r, at each level) is walked
	// once per distinct story and bindings, not once per path
	type visit struct {
		s    *story.Story
		over string
	}
	done := map[visit]bool{}
	var walk func(s *story.Story, over map[string]string)
	walk = func(s *story.Story, over map[string]string) {
		v := visit{s, bindingsKey(over)}
		if done[v] || len(done) >= maxIfaceVisits {
			return
		}
		done[v] = true
		kids := map[string]map[string]string{}
		for _, a := range s.ImportOrder {
			if im := s.Imports[a]; im != nil && im.Child != nil {
				kids[a] = childBindings(over, a, im.HostBindings)
			}
		}
		storyEffects(src, s, func(p *story.EffectPlace, _ bool, alias string) {
			name, op, ok := story.IfaceCall(p.Effect.Invoke)
			if !ok || p.Within("effects") || p.InProposal() {
				return
			}
			scope, binds := s, over
			if alias != "" { // an overrides: state runs in the child's scope
				scope, binds = s.Imports[alias].Child, kids[alias]
			}
			to := binds[name]
			if hi := scope.HostInterfaces[name]; to == "" && hi != nil {
				to = hi.Default
			}
			if h := to + "." + op; to != "" && op != "" && !seen[h] {
				seen[h] = true
				out = append(out, h)
			}
		})
		for _, a := range s.ImportOrder {
			if kid, ok := kids[a]; ok {
				walk(s.Imports[a].Child, kid)
			}
		}
	}
	walk(top, nil)
	slices.Sort(out)
	return out
}

// childBindings are the bindings the child imported as alias gets: a
// higher level's binding of its lifted name (alias__name, in over) wins
// over the import's own host_bindings:.
func childBindings(over map[string]string, alias string, own map[string]string) map[string]string {
	kid := map[string]string{}
	for k, v := range over {
		if n, ok := strings.CutPrefix(k, alias+"__"); ok {
			kid[n] = v
		}
	}
	for k, v := range own {
		if _, ok := kid[k]; !ok {
			kid[k] = v
		}
	}
	return kid
}

// bindingsKey is a bindings map as one comparable text.
func bindingsKey(m map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		b.WriteString(k + "\x00" + m[k] + "\x00")
	}
	return b.String()
}

// maxIfaceVisits bounds the stories and bindings ifaceHostNames walks (an
// import tree past the fold's own limit is refused there anyway).
const maxIfaceVisits = 10000
