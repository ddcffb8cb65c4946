package engine

import (
	"slices"
	"strings"
)

// unknownLeaf is where upstream's flow rig rests on a start path the story
// does not hold but that lies under a state (conformance
// start-under-known): a chain of states of its own (no view, arms,
// on_enter or timeout) up every unknown dotted prefix to the deepest known
// one. nil when no proper prefix names a state, or the one found is
// neither the parallel root within (when set) nor inside it.
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
			known = r.unknownState(unknown[j], known)
		}
		return known
	}
}

// unknownState is the state of the unknown path u under parent: the one
// the machine rests in or below when it has that path and parent, so a
// move between unknown paths leaves their common unknown prefix alone, as
// upstream's machine compares paths (conformance
// template-target-same-unknown); else a new one.
func (r *runner) unknownState(u string, parent *State) *State {
	if r.par == nil {
		for s := r.cur; s != nil; s = s.Parent {
			if s.Path == u && s.Parent == parent && r.m.States[u] != s {
				return s
			}
		}
	}
	return &State{Path: u, Name: u[strings.LastIndexByte(u, '.')+1:], Parent: parent}
}

// outsideLeaf is an entry of a parallel start (p#...|x) that lies under no
// state inside p: a region of its own that handles nothing (conformance
// par-start-unknown-region), under no state, so the root's intents are
// not allowed through it (`p#zz` alone refuses them all:
// par-start-entry-forms).
func outsideLeaf(path string) *State {
	return &State{Path: path, Name: path[strings.LastIndexByte(path, '.')+1:]}
}

// viewPath is the path whose view shows while the machine rests on an
// unknownLeaf: none for the raw dotted path, and a parallel configuration
// without its unknown leaves. ok is false when nothing renders.
func (r *runner) viewPath(path string) (string, bool) {
	if r.par == nil || path != r.par.encode() {
		if r.cur != nil && path == r.cur.Path && r.m.States[path] != r.cur {
			return "", false
		}
		return path, true
	}
	var known []string // in the path's order (conformance par-start-verbatim)
	_, leaves, _ := strings.Cut(path, "#")
	for _, l := range strings.Split(leaves, "|") {
		if r.m.States[l] != nil {
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
		return slices.ContainsFunc(r.leaves(), func(l *State) bool { return l != nil && r.m.States[l.Path] != l })
	})
}

// allowLeaves are the states whose arms make an intent allowed: the
// leaves, and for an outsideLeaf the state outside the parallel root that
// its path, or else the deepest dotted prefix naming one, names, as upstream looks up the
// prefixes of every entry of the encoding (`idle.x`: `idle`'s intents are
// allowed and fail GUARD_FAILED; conformance par-start-outside-prefix).
// An entry holding "#" (an encoding a receiver wrote into a place, read
// back) allows what the state after its last "#" names, or the deepest
// of that part's prefixes naming one (`p#p.ra.x1`: `x1`'s intents;
// conformance par-emit-root-next).
func (r *runner) allowLeaves() []*State {
	leaves := r.leaves()
	if r.par == nil {
		return leaves
	}
	out := make([]*State, 0, len(leaves))
	for _, l := range leaves {
		out = append(out, l)
		if r.m.States[l.Path] == l || r.par.inRegion(l) {
			continue
		}
		// an outsideLeaf has no parent, so the root's arcs and its
		// ancestors' are not allowed through it; only the states its own
		// path names are (conformance par-start-outside-root-arcs)
		if i := strings.LastIndexByte(l.Path, '#'); i >= 0 {
			if s := r.deepestNamed(l.Path[i+1:]); s != nil {
				out = append(out, s)
			}
			continue
		}
		// the entry itself first: a state outside the root (`s0`) allows
		// its own intents (conformance par-start-outside-state), the
		// root its own (`p#p`: par-start-entry-forms)
		if s := r.deepestNamed(l.Path); s != nil && !s.within(r.par.root) {
			out = append(out, s)
		}
	}
	return out
}

// deepestNamed is the state path names, or the deepest state a dotted
// prefix of it names; nil when none does.
func (r *runner) deepestNamed(path string) *State {
	for p := path; ; p = p[:strings.LastIndexByte(p, '.')] {
		if s := r.m.States[p]; s != nil {
			return s
		}
		if strings.LastIndexByte(p, '.') < 0 {
			return nil
		}
	}
}
