package main

import (
	"slices"
	"strings"
)

// impSim is the import fixture's guess of where a story rests, so that
// most turns send an intent the state takes: the folded states with
// their arms (each arm's last, unguarded target), compound initials and
// parallel regions, and the children's exits. Guards, on_error redirects
// and emits are not followed; a wrong guess costs a rejected turn, which
// both engines must agree on too.
type impSim struct {
	states map[string]*simNode
	cur    []string // the active leaves (two in a parallel state)
}

type simNode struct {
	arms    map[string]string // folded intent → raw target
	initial string            // a compound's initial child, absolute
	regions []string          // a parallel state's regions, absolute
	owner   *impChild         // the child whose scope its targets are in
}

func newImpSim(parent m, kids []*impChild) *impSim {
	s := &impSim{states: map[string]*simNode{}}
	s.add(parent, "", nil)
	for _, c := range kids {
		entry, _ := c.def["entry"].(string)
		if entry == "" {
			entry = "k1"
		}
		s.states[c.path] = &simNode{arms: map[string]string{}, initial: c.path + "." + entry, owner: c.parent}
		if c.app != nil {
			s.add(c.app["states"].(m), c.path, c)
		}
		if ov, ok := c.def["overrides"].(m); ok {
			if st, ok := ov["states"].(m); ok {
				s.add(st, c.path, c)
			}
		}
	}
	return s
}

// add records the states below base (a child's states in its scope).
func (s *impSim) add(states m, base string, c *impChild) {
	eachState(base, states, func(p string, st m) {
		n := &simNode{arms: map[string]string{}, owner: c}
		if on, ok := st["on"].(m); ok {
			for in, v := range on {
				arms, _ := v.([]any)
				if len(arms) == 0 {
					continue
				}
				name := in
				if c != nil && slices.Contains(childIntents, in) {
					name = c.prefix + in
				}
				n.arms[name], _ = arms[len(arms)-1].(m)["target"].(string)
			}
		}
		if ch, ok := st["states"].(m); ok {
			if st["type"] == "parallel" {
				for _, r := range sortedKeys(ch) {
					n.regions = append(n.regions, p+"."+r)
				}
			} else if ini, ok := st["initial"].(string); ok {
				n.initial = p + "." + ini
			}
		}
		s.states[p] = n
	})
}

// enter is the leaves a transition to p rests in.
func (s *impSim) enter(p string) []string {
	n := s.states[p]
	switch {
	case n == nil:
		return nil
	case n.initial != "":
		return s.enter(n.initial)
	case len(n.regions) > 0:
		var out []string
		for _, r := range n.regions {
			out = append(out, s.enter(r)...)
		}
		return out
	}
	return []string{p}
}

// resolve is the absolute path of target t taken in state from, whose
// node is in the scope of child c (nil: the top story). ok is false for
// a stay or a target it cannot follow.
func (s *impSim) resolve(t, from string, c *impChild) (string, bool) {
	switch {
	case t == "" || t == ".":
		return "", false
	case strings.HasPrefix(t, "@exit:"):
		if c == nil || c.def == nil {
			return "", false
		}
		ex, _ := c.def["exits"].(m)[strings.TrimPrefix(t, "@exit:")].(m)
		if ex == nil {
			return "", false
		}
		to, _ := ex["to"].(string)
		return s.resolve(to, c.path, c.parent)
	case strings.HasPrefix(t, "../"):
		segs := strings.Split(from, ".")
		for strings.HasPrefix(t, "../") {
			t = t[3:]
			if len(segs) == 0 {
				return "", false
			}
			segs = segs[:len(segs)-1]
		}
		return strings.Join(append(segs, t), "."), true
	case c != nil && !strings.Contains(t, "."):
		return c.path + "." + t, true
	}
	return t, true
}

// handled is every intent the active leaves and their ancestors take.
func (s *impSim) handled() []string {
	seen := map[string]bool{}
	var out []string
	for _, leaf := range s.cur {
		for p := leaf; p != ""; p = parentPath(p) {
			if n := s.states[p]; n != nil {
				for _, in := range sortedKeys(toM(n.arms)) {
					if !seen[in] {
						seen[in] = true
						out = append(out, in)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// take follows intent in from the active leaves.
func (s *impSim) take(in string) {
	for i, leaf := range s.cur {
		for p := leaf; p != ""; p = parentPath(p) {
			n := s.states[p]
			if n == nil {
				continue
			}
			t, ok := n.arms[in]
			if !ok {
				continue
			}
			to, ok := s.resolve(t, p, n.owner)
			if !ok {
				return
			}
			leaves := s.enter(to)
			if len(leaves) == 0 {
				return
			}
			if len(s.cur) > 1 && len(leaves) == 1 && parentPath(parentPath(leaf)) == parentPath(parentPath(leaves[0])) {
				s.cur[i] = leaves[0] // within one region of a parallel state
				return
			}
			s.cur = leaves
			return
		}
	}
}

func parentPath(p string) string {
	if i := strings.LastIndex(p, "."); i >= 0 {
		return p[:i]
	}
	return ""
}

func toM(x map[string]string) m {
	out := m{}
	for k, v := range x {
		out[k] = v
	}
	return out
}
