package engine

import "strings"

// A flow fixture's initial_state that is no state of the story but lies
// under one (c.c9, "c.", c.x.y, or an unknown leaf of a parallel form,
// p#p.ra.a1|p.rb.b9) is where upstream's flow rig rests: its machine looks
// an intent up through the path's dotted prefixes, and leaving it writes
// machine.state_exited for the raw path and then each known ancestor
// (conformance start-under-known). The runner rests on an unknownLeaf, a
// state of its own the story does not hold: no view, no arms, no
// on_enter, no timeout, its parent the deepest known dotted prefix. A path
// whose first segment names no state stays unknown (the flow rig plays it
// stranded).

// unknownLeaf is the resting state for path: a chain of states of its own
// up every unknown dotted prefix to the deepest known one, whose exits
// upstream writes too (c.x.y leaves c.x.y, c.x, then c); nil when no
// proper prefix names a state, or the one found is neither the parallel
// root within (when set) nor inside it.
func (r *runner) unknownLeaf(path string, within *State) *State {
	var unknown []string // path and its unknown prefixes, deepest first
	for p := path; ; {
		unknown = append(unknown, p)
		i := strings.LastIndexByte(p, '.')
		if i <= 0 {
			return nil
		}
		p = p[:i]
		known := r.m.States[p]
		if known == nil {
			continue
		}
		if within != nil && known != within && !known.within(within) {
			return nil
		}
		for j := len(unknown) - 1; j >= 0; j-- {
			u := unknown[j]
			known = &State{Path: u, Name: u[strings.LastIndexByte(u, '.')+1:], Parent: known}
		}
		return known
	}
}

// outsideLeaf is an entry of a parallel start (p#...|x) that names no
// state inside p and lies under none (idle.x, a name no state has, or the
// empty entry of p#p.ra.a1|): upstream's rig keeps it in the path, where
// it handles nothing, until the machine moves (conformance
// par-start-unknown-region). It rests as a region of its own.
func outsideLeaf(path string, p *State) *State {
	return &State{Path: path, Name: path[strings.LastIndexByte(path, '.')+1:], Parent: p}
}

// viewPath is the path whose view shows while the machine rests on an
// unknownLeaf: none for the raw dotted path (upstream renders ""), and a
// parallel configuration without its unknown leaves (the root's view and
// the known leaves' show, as upstream). ok is false when nothing renders.
func (r *runner) viewPath(path string) (string, bool) {
	if r.par == nil || path != r.par.encode() {
		if r.cur != nil && path == r.cur.Path && r.m.States[path] != r.cur {
			return "", false
		}
		return path, true
	}
	// the leaves in the path's own order (a fixture's start keeps its
	// order: conformance par-start-verbatim)
	var known []string
	_, leaves, _ := strings.Cut(path, "#")
	for _, l := range strings.Split(leaves, "|") {
		if l = strings.TrimSpace(l); r.m.States[l] != nil {
			known = append(known, l)
		}
	}
	return r.par.root.Path + "#" + strings.Join(known, "|"), true
}

// ViewPath is the state path whose view shows for path, the session's
// State(): the same path but while the session rests on a flow start the
// story does not hold (see viewPath); ok is false when no view shows.
func (s *Session) ViewPath(path string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.viewPath(path)
}

// RestsUnknown reports whether the session rests on a flow start the story
// does not hold (an unknownLeaf, or a parallel configuration with one):
// its Available intents are then the ones its known prefixes take.
func (s *Session) RestsUnknown() bool {
	return locked(s, func(r *runner) bool {
		for _, l := range r.leaves() {
			if l != nil && r.m.States[l.Path] != l {
				return true
			}
		}
		return false
	})
}
