package lint

import (
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// lifted reports whether name is an <alias>__<n> name that upstream's import
// fold creates from a child's world key, intent, agent or meta mode, so the
// parent may refer to it.
func lifted(st *story.Story, kind, name string) bool {
	alias, n, ok := strings.Cut(name, "__")
	if !ok {
		return false
	}
	im := st.Imports[alias]
	if im == nil {
		return false
	}
	if im.Child == nil {
		return true // not loaded here: its names are accepted
	}
	return declares(im.Child, kind, n) || lifted(im.Child, kind, n)
}

// declares reports whether st itself declares name as a kind of name.
func declares(st *story.Story, kind, name string) bool {
	switch kind {
	case "world":
		return st.Var(name) != nil
	case "intent":
		return st.Intents[name] != nil
	case "agent":
		return st.Agents[name] != nil
	case "iface":
		return st.HostInterfaces[name] != nil
	case "host":
		return slices.Contains(inheritedHosts(st), name)
	}
	return false
}

// importerHas reports whether an importer of st (at any depth) declares
// name: upstream checks a child folded into its importer.
func importerHas(st *story.Story, kind, name string) bool {
	for imp := st.Importer(); imp != nil; imp = imp.Importer() {
		if declares(imp, kind, name) {
			return true
		}
	}
	return false
}

// pluginFor returns the agent_plugins entry an agent: alias uses: the
// outermost declaration wins, as upstream does not fold a child's table.
func pluginFor(st *story.Story, alias string) *story.AgentPlugin {
	var found *story.AgentPlugin
	for s := st; s != nil; s = s.Importer() {
		if ap := s.AgentPlugins[alias]; ap != nil && !(ap.Injected && found != nil) {
			found = ap
		}
	}
	return found
}

// boundByImporter reports whether an importer binds st's host interface
// through host_bindings: (lifted at each level).
func boundByImporter(st *story.Story, iface string) bool {
	want := iface
	for cur := st; cur.Importer() != nil; cur = cur.Importer() {
		imp, alias := cur.Importer(), ""
		for _, a := range imp.ImportOrder {
			if im := imp.Imports[a]; im != nil && im.Child == cur {
				alias = a
				if im.HostBindings[want] != "" {
					return true
				}
			}
		}
		if alias == "" {
			return false
		}
		want = alias + "__" + want
	}
	return false
}

// liftedIntent returns the child intent behind a lifted <alias>__<name>
// intent (nil when it is not one, or when the child is not loaded).
func liftedIntent(st *story.Story, name string) *story.Intent {
	alias, n, ok := strings.Cut(name, "__")
	if !ok {
		return nil
	}
	im := st.Imports[alias]
	if im == nil || im.Child == nil {
		return nil
	}
	if in := im.Child.Intents[n]; in != nil {
		return in
	}
	return liftedIntent(im.Child, n)
}

// inheritedHosts is inheritedHosts(st), worked out once per load: each
// story of the tree asks it of the top one. The slice is shared: clip it
// before appending.
func (l *sources) inheritedHosts(st *story.Story) []string {
	if l == nil {
		return inheritedHosts(st)
	}
	if hs, ok := l.hosts[st]; ok {
		return hs
	}
	if l.hosts == nil {
		l.hosts = map[*story.Story][]string{}
	}
	hs := inheritedHosts(st)
	l.hosts[st] = hs
	return hs
}

// overriddenAs lists the aliases under which imp imports child with
// overrides:, in imp's import order; imp's imports are gone through once
// per load, not once per child.
func (l *sources) overriddenAs(imp, child *story.Story) []string {
	if l == nil {
		l = &sources{}
	}
	by, ok := l.overridden[imp]
	if !ok {
		by = map[*story.Story][]string{}
		for _, alias := range imp.ImportOrder {
			if im := imp.Imports[alias]; im != nil && im.Child != nil && im.Overrides != nil {
				by[im.Child] = append(by[im.Child], alias)
			}
		}
		if l.overridden == nil {
			l.overridden = map[*story.Story]map[*story.Story][]string{}
		}
		l.overridden[imp] = by
	}
	return by[child]
}

// inheritedHosts is the story's hosts: list after upstream's fold, with
// every hosts: inherit child's; each story is visited once.
func inheritedHosts(st *story.Story) []string {
	var out []string
	seen := map[*story.Story]bool{}
	var walk func(*story.Story)
	walk = func(s *story.Story) {
		if seen[s] {
			return
		}
		seen[s] = true
		out = append(out, s.Hosts...)
		for _, a := range s.ImportOrder {
			if im := s.Imports[a]; im != nil && im.Child != nil && im.Hosts != "declared" {
				walk(im.Child)
			}
		}
	}
	walk(st)
	return out
}
