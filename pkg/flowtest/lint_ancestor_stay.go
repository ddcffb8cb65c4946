package flowtest

import "kitsoki/pkg/story"

// A stay (target "." or none) on an arm an ancestor owns means the
// owner (conformance ancestor-stay, probed on the existing engine, both
// paths): from a leaf of a compound state that is not its initial leaf
// the machine moves to that leaf, whose on_enter runs (the ancestor's
// does not); from the initial leaf it stays, running no on_enter. Judged
// only where both leaves are the owner's own children, the owner a
// compound state outside any parallel state with a literal initial:.

// stayLeaf is the leaf a stay on an arm owner n takes from s lands on
// (s itself when it is n's initial leaf), or nil when that is not judged.
func (ix *storyIndex) stayLeaf(n, s *story.State) *story.State {
	if n == nil || s == nil || s.Parent != n || len(s.Children) > 0 || n.Type != "compound" || inParallel(n) {
		return nil
	}
	init := n.Initial()
	if init == "" || story.IsTemplated(init) {
		return nil
	}
	d := ix.byPath[n.Path+"."+init]
	if d == nil || d.Parent != n || len(d.Children) > 0 {
		return nil
	}
	return d
}

// ancestorStay follows the stay an arm owner n takes from w.cur: a move
// to n's initial leaf, its on_enter run (its emits onto emits), or no
// move from that leaf. false: not followed.
func (w *settleWalk) ancestorStay(n *story.State, t *Turn, emits *[]string) bool {
	dest := w.l.ix.stayLeaf(n, w.cur)
	if dest == nil || w.l.ix.plainLeaf(dest.Path) == nil {
		return false
	}
	if dest == w.cur {
		return true
	}
	if _, ok := w.enter(dest, false); !ok {
		return false
	}
	w.cur = dest
	return w.effects(dest.OnEnter, t, emits)
}
