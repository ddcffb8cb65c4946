package engine

import "testing"

// parTree builds a parallel root p with regions a (a1, a2) and c (c1,
// c2) and returns the states by short name.
func parTree() map[string]*State {
	s := map[string]*State{}
	add := func(name string, parent *State) *State {
		st := &State{Name: name, Path: name, Parent: parent}
		if parent != nil {
			st.Path = parent.Path + "." + name
			parent.Children = append(parent.Children, st)
		}
		s[name] = st
		return st
	}
	p := add("p", nil)
	p.Parallel = true
	for _, reg := range []string{"a", "c"} {
		r := add(reg, p)
		add(reg+"1", r)
		add(reg+"2", r)
	}
	return s
}

// After a cross-region move one state may stand in two places: an emit:
// reaching a place goes to the leaf there, and a move in one place leaves
// the other alone (conformance emit-place-order).
func TestParConfPlaces(t *testing.T) {
	s := parTree()
	pc := &parConf{root: s["p"]}
	pc.set(s["a1"])
	pc.set(s["c1"])
	pc.replace(s["a1"], s["c2"]) // a1's arm targets p.c.c2
	if got := pc.inPlace(s["a"]); got != s["c2"] {
		t.Fatalf("a's place holds %v, want c2", got)
	}
	if got := pc.leafIn(s["a"]); got != nil {
		t.Fatalf("leafIn(a) = %v, want none", got.Path)
	}
	pc.replaceAt(s["c"], s["c1"], s["c2"]) // c's own leaf moves to c2 too
	if got := pc.encode(); got != "p#p.c.c2|p.c.c2" {
		t.Fatalf("encode = %q", got)
	}
	pc.replaceAt(s["a"], s["c2"], s["c1"]) // the one in a's place moves back
	if pc.inPlace(s["a"]) != s["c1"] || pc.inPlace(s["c"]) != s["c2"] {
		t.Fatalf("places a=%v c=%v, want c1 and c2", pc.inPlace(s["a"]).Path, pc.inPlace(s["c"]).Path)
	}
	if got := pc.placeOf(s["c1"]); got != s["a"] {
		t.Fatalf("placeOf(c1) = %v, want a", got.Path)
	}
	// set makes c2 c's only leaf: the c leaf in a's place leaves it empty
	pc.set(s["c2"])
	if got := pc.encode(); got != "p#p.c.c2" || pc.inPlace(s["a"]) != nil {
		t.Fatalf("after set: %q, a's place %v", got, pc.inPlace(s["a"]))
	}
	cl := pc.clone()
	cl.set(s["a2"])
	if pc.inPlace(s["a"]) != nil || cl.inPlace(s["a"]) != s["a2"] {
		t.Fatal("clone shares its places with the original")
	}
}
