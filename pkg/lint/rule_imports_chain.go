package lint

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// liftedExitUses lists the @exit:<x> targets of ch its own imports bring
// in (a grand-child's @exit:<y> that ch maps to "@exit:<x>"), named as
// folded; the mapped exit's set: keys count as set, a key the grand-child
// declares is renamed by the fold.
func liftedExitUses(ch *story.Story) []exitUse {
	var out []exitUse
	for _, ga := range ch.ImportOrder {
		gi := ch.Imports[ga]
		if gi == nil || gi.Child == nil {
			continue
		}
		gc := gi.Child
		for _, u := range append(childExitUses(gc, gi.Overrides), liftedExitUses(gc)...) {
			ex := gi.Exits[u.exit]
			if ex == nil {
				continue
			}
			x, ok := strings.CutPrefix(ex.To, "@exit:")
			if !ok {
				continue
			}
			lu := exitUse{exit: x, state: ga + "." + u.state, intent: u.intent, t: u.t, extra: slices.Clone(u.extra)}
			if gc.Intents[u.intent] != nil {
				lu.intent = ga + "__" + u.intent
			}
			for _, kv := range ex.Set {
				lu.extra = append(lu.extra, kv.Key)
			}
			inner := u.renamed
			lu.renamed = func(k string) bool { return gc.Var(k) != nil || (inner != nil && inner(k)) }
			out = append(out, lu)
		}
	}
	return out
}

// setsKey reports whether the transition of u sets key in the scope of
// the child it is checked for.
func (u exitUse) setsKey(key string) bool {
	if slices.Contains(u.extra, key) {
		return true
	}
	if u.renamed != nil && u.renamed(key) {
		return false
	}
	return setsKey(u.t, key)
}

// overriddenStates is every state of ch, each top-level state ov
// overrides replaced by the override.
func overriddenStates(ch *story.Story, ov *story.ImportOverrides) []*story.State {
	if ov == nil || len(ov.States) == 0 {
		return ch.AllStates()
	}
	tops := slices.Clone(ch.States)
	for i, s := range tops {
		if o, _ := ov.ParseState(s.Path); o != nil {
			tops[i] = o
		}
	}
	return story.Flatten(tops)
}

// hostsBefore is the importer's hosts: list as a `hosts: declared` import
// under alias finds it: upstream folds imports in sorted alias order.
func hostsBefore(st *story.Story, alias string) []string {
	out := slices.Clone(st.Hosts)
	for _, a := range st.ImportOrder {
		if im := st.Imports[a]; a < alias && im != nil && im.Child != nil && im.Child != st && im.Hosts != "declared" {
			out = append(out, inheritedHosts(im.Child)...)
		}
	}
	return out
}

// onCompleteNoState is upstream's error for an on_complete target that
// names no state.
func onCompleteNoState(loc, tg string) string {
	return fmt.Sprintf("%s: target %q (resolved: %q) does not exist (an on_complete target must name a state: write the state to go to, or leave target: out to stay)", loc, tg, tg)
}

// checkOnCompleteExitStays: a child's on_complete "@exit:<x>" mapped to
// "." (or to the top story's own exit) names no state once folded.
func checkOnCompleteExitStays(c *checker, alias string, im *story.Import, ch *story.Story) {
	for _, s := range overriddenStates(ch, im.Overrides) {
		for p := range (story.EffectWalk{}).States(s) {
			x, ok := strings.CutPrefix(strings.TrimSpace(p.Effect.Target()), "@exit:")
			if !ok || !p.Within("on_complete") || im.Exits[x] == nil {
				continue
			}
			to := strings.TrimSpace(im.Exits[x].To)
			if to != "." && !(strings.HasPrefix(to, "@exit:") && !c.st.Imported()) {
				continue
			}
			// the wrapper's name before the state's; the intent as written
			loc := renamedSite(p, p.Place().Renamed(func(path string) string { return alias + "." + path }, func(in string) string { return in }))
			c.rep.Errf(im.Exits[x].ToPos, story.RuleImports, "imports.%s: exits.%s.to: %s", alias, x, onCompleteNoState(loc, to))
		}
	}
}

// liftedIface reports whether ch has host interface name once its own
// imports are folded.
func liftedIface(ch *story.Story, name string) bool {
	if ch.HostInterfaces[name] != nil {
		return true
	}
	for i := strings.Index(name, "__"); i > 0; i = nextSep(name, i) {
		if im := ch.Imports[name[:i]]; im != nil && im.Child != nil && im.Child != ch && liftedIface(im.Child, name[i+2:]) {
			return true
		}
	}
	return false
}

// nextSep is the index of the next "__" in name after the one at i, or -1.
func nextSep(name string, i int) int {
	j := strings.Index(name[i+2:], "__")
	if j < 0 {
		return -1
	}
	return i + 2 + j
}
