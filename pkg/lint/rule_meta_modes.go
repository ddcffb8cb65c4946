package lint

import (
	"strings"

	"kitsoki/pkg/story"
)

// checkMetaModes: meta_modes: declarations (reference §9.6).
func checkMetaModes(c *checker) {
	claimed := map[string]string{} // group+trigger -> key
	defaults := map[string][]string{}
	groups := map[string]int{}
	groupPos := map[string]story.Pos{} // the group's first mode, by key
	for _, k := range sortedMapKeys(c.st.MetaModes) {
		mm := c.st.MetaModes[k]
		if mm.Trigger == "" {
			c.rep.Errf(mm.Pos, story.RuleMetaMode, "meta_mode %q: trigger is required", k)
		}
		if mm.Agent == "" {
			c.rep.Errf(mm.Pos, story.RuleMetaMode, "meta_mode %q: agent is required", k)
		}
		if mm.Group != "" {
			prefix, suffix, _ := strings.Cut(k, ".")
			if prefix != mm.Group {
				c.rep.Errf(mm.Pos, story.RuleMetaMode, "meta_mode %q: group %q does not match key prefix %q (key must be %q.<trigger>)", k, mm.Group, prefix, mm.Group)
			} else if mm.Trigger != "" && suffix != mm.Trigger {
				c.rep.Errf(mm.Pos, story.RuleMetaMode, "meta_mode %q: trigger %q does not match key suffix %q", k, mm.Trigger, suffix)
			}
			if groups[mm.Group] == 0 {
				groupPos[mm.Group] = mm.Pos
			}
			groups[mm.Group]++
			if mm.Default {
				defaults[mm.Group] = append(defaults[mm.Group], k)
			}
		} else if mm.Trigger != "" && c.st.Intents[mm.Trigger] != nil {
			c.rep.Errf(mm.Pos, story.RuleMetaMode, "meta_mode %q: trigger %q collides with a declared intent of the same name", k, mm.Trigger)
		}
		if mm.Trigger != "" {
			ck := mm.Group + "\x00" + mm.Trigger
			if other, dup := claimed[ck]; dup {
				c.rep.Errf(mm.Pos, story.RuleMetaMode, "meta_mode %q: trigger %q already claimed by meta_mode %q in group %q", k, mm.Trigger, other, mm.Group)
			} else {
				claimed[ck] = k
			}
		}
	}
	gs := sortedMapKeys(groups)
	for _, g := range gs {
		if g == "story" || g == "kitsoki" {
			continue // built-in groups: the engine injects their default verb
		}
		n, p := len(defaults[g]), groupPos[g]
		switch {
		case n == 0:
			c.rep.Errf(p, story.RuleMetaMode, "meta_mode group %q: no default verb declared (one of %d modes must set default: true)", g, groups[g])
		case n > 1:
			c.rep.Errf(p, story.RuleMetaMode, "meta_mode group %q: %d modes flagged default: true (%s) — exactly one allowed", g, n, strings.Join(defaults[g], ", "))
		}
	}
}
