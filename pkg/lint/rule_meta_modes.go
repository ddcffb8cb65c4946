package lint

import (
	"strings"

	"kitsoki/pkg/story"
)

// checkMetaModes: meta_modes: declarations (reference §9.6), checked as
// upstream checks them: once, on the folded story, so an imported child's
// modes are checked with the top story's under their folded keys
// (foldedMetaModes) and not on their own.
func checkMetaModes(c *checker) {
	if c.st.Imported() {
		return
	}
	modes := foldedMetaModes(c.st, !c.foldOver)
	// Upstream injects story.edit (the default), story.ask and story.bug
	// into the story loaded unless it declares the same key; they claim
	// their triggers in the group story like declared modes.
	pos := c.metaModePos("story.edit")
	for _, k := range sortedMapKeys(modes) {
		if pos.File == "" {
			pos = modes[k].Pos
		}
	}
	for _, verb := range []string{"edit", "ask", "bug"} {
		if k := "story." + verb; modes[k] == nil {
			modes[k] = &story.MetaMode{Group: "story", Trigger: verb, Agent: "story-author", Default: verb == "edit", Pos: pos}
		}
	}
	claimed := map[string]string{} // group+trigger -> key
	defaults := map[string][]string{}
	groups := map[string]int{}
	groupPos := map[string]story.Pos{} // the group's first mode, by key
	for _, k := range sortedMapKeys(modes) {
		mm := modes[k]
		if mm.Trigger == "" {
			c.rep.Errf(mm.Pos, story.RuleMetaMode, "meta_mode %q: trigger is required", k)
		}
		if mm.Agent == "" {
			c.rep.Errf(mm.Pos, story.RuleMetaMode, "meta_mode %q: agent is required", k)
		}
		group, grouped := metaModeGroup(k, mm)
		if prefix, suffix, dotted := strings.Cut(k, "."); dotted {
			if mm.Group != "" && prefix != mm.Group {
				c.rep.Errf(mm.Pos, story.RuleMetaMode, "meta_mode %q: group %q does not match key prefix %q (key must be %q.<trigger>)", k, mm.Group, prefix, mm.Group)
			}
			if mm.Trigger != "" && suffix != mm.Trigger {
				c.rep.Errf(mm.Pos, story.RuleMetaMode, "meta_mode %q: trigger %q does not match key suffix %q (grouped key must be <group>.%q)", k, mm.Trigger, suffix, mm.Trigger)
			}
		}
		if grouped {
			if groups[group] == 0 {
				groupPos[group] = mm.Pos
			}
			groups[group]++
			if mm.Default {
				defaults[group] = append(defaults[group], k)
			}
		} else if mm.Trigger != "" && (c.st.Intents[mm.Trigger] != nil || lifted(c.st, "intent", mm.Trigger)) {
			c.rep.Errf(mm.Pos, story.RuleMetaMode, "meta_mode %q: trigger %q collides with a declared intent of the same name", k, mm.Trigger)
		}
		if mm.Trigger != "" {
			ck := group + "\x00" + mm.Trigger
			if other, dup := claimed[ck]; dup {
				c.rep.Errf(mm.Pos, story.RuleMetaMode, "meta_mode %q: trigger %q already claimed by meta_mode %q in group %q", k, mm.Trigger, other, group)
			} else {
				claimed[ck] = k
			}
		}
	}
	gs := sortedMapKeys(groups)
	for _, g := range gs {
		if g == "kitsoki" {
			continue // injected only with a kitsoki checkout (KITSOKI_REPO)
		}
		n, p := len(defaults[g]), groupPos[g]
		switch {
		case n == 0 && groups[g] > 1: // a group of one needs no default
			c.rep.Errf(p, story.RuleMetaMode, "meta_mode group %q: no default verb declared (one of %d modes must set default: true)", g, groups[g])
		case n > 1:
			c.rep.Errf(p, story.RuleMetaMode, "meta_mode group %q: %d modes flagged default: true (%s) — exactly one allowed", g, n, strings.Join(defaults[g], ", "))
		}
	}
}

// metaModeGroup is the group mode k belongs to: its group:, else the
// key's part before the first "." (".ask" is in the group ""), as the
// existing engine's loader reads it; grouped is false for an undotted key
// without group:.
func metaModeGroup(k string, mm *story.MetaMode) (group string, grouped bool) {
	if mm.Group != "" {
		return mm.Group, true
	}
	prefix, _, dotted := strings.Cut(k, ".")
	return prefix, dotted
}

// metaModePos is where meta_mode k is declared, else where meta_modes: is.
func (c *checker) metaModePos(k string) story.Pos {
	if mm := c.st.MetaModes[k]; mm != nil {
		return mm.Pos
	}
	for _, k := range sortedMapKeys(c.st.MetaModes) {
		return c.st.MetaModes[k].Pos
	}
	return story.Pos{}
}

// foldedMetaModes is st's meta_modes: with its imported children's folded
// in, as upstream's fold files them: a child's key under
// <alias>__<key> at each level (`kid__g.t`, `mid__deep__t`), its group:
// kept as written, so a grouped mode in a child never matches its key's
// prefix and upstream refuses it (conformance meta-mode-group-imported). A
// child imported under two aliases is filed under both. children is false
// when the import tree folds past the limits: its own modes only.
func foldedMetaModes(st *story.Story, children bool) map[string]*story.MetaMode {
	out := map[string]*story.MetaMode{}
	eachFolded(st, children, func(s *story.Story, prefix string) {
		for k, mm := range s.MetaModes {
			out[prefix+k] = mm
		}
	})
	return out
}
