package story

import "testing"

// The target: and when: positions a Transition keeps without their file
// read back in the arm's file, and as the zero Pos where the key is not
// written (callers fall back to the arm's Pos on File == "").
func TestTransitionValuePositions(t *testing.T) {
	src := "app: {id: p}\nroot: a\nintents:\n  go: {}\nstates:\n  a:\n    initial: b\n    on:\n      go:\n        - target: a\n          when: \"true\"\n        - {}\n        - a\n"
	st, ds := LoadSource("p.yaml", []byte(src), Options{})
	if st == nil || st.State("a") == nil {
		t.Fatalf("no story: %v", ds)
	}
	a := st.State("a")
	if got, want := a.InitialPos(), (Pos{File: "p.yaml", Line: 7, Col: 14}); a.Initial() != "b" || got != want {
		t.Errorf("initial %q at %v, want b at %v", a.Initial(), got, want)
	}
	arms := a.Arms("go")
	if len(arms) != 3 {
		t.Fatalf("%d arms, want 3", len(arms))
	}
	for i, c := range []struct{ target, when Pos }{
		{Pos{File: "p.yaml", Line: 10, Col: 19}, Pos{File: "p.yaml", Line: 11, Col: 18}},
		{},
		{Pos{File: "p.yaml", Line: 13, Col: 11}, Pos{}},
	} {
		if got := arms[i].TargetPos(); got != c.target {
			t.Errorf("arm %d: TargetPos %v, want %v", i, got, c.target)
		}
		if got := arms[i].WhenPos(); got != c.when {
			t.Errorf("arm %d: WhenPos %v, want %v", i, got, c.when)
		}
	}
}
