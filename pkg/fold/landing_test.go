package fold

import (
	"testing"

	"kitsoki/internal/testing/storyload"
)

// TestFreeFormFallback: the implicit landing's work arms, retargeted to
// the landing, reach every room but the terminal, default_intent and
// off-ramp ones and those with their own work arc; the loaded story is
// not touched.
func TestFreeFormFallback(t *testing.T) {
	st := storyload.LoadNoEnv(t, "testdata/conformance/landing-neighbours")
	if !Changes(st) {
		t.Fatal("Changes: a story with a landing fallback reports nothing to fold")
	}
	f := mustFold(t, st)
	for _, p := range []string{"browser", "box", "box.inner"} {
		arms := state(t, f, p).Arms("work")
		if len(arms) != 3 {
			t.Fatalf("%s: %d work arms, want the landing's 3", p, len(arms))
		}
		for i, a := range arms {
			eq(t, p+" target", a.Target, "landing")
			eq(t, p+" guard", a.When, state(t, f, "landing").Arms("work")[i].When)
		}
	}
	for _, p := range []string{"defaulted", "done"} {
		if state(t, f, p).HasOn("work") {
			t.Errorf("%s got the fallback", p)
		}
	}
	eq(t, "own arc kept", len(state(t, f, "box.own").Arms("work")), 1)
	eq(t, "landing's own arms", state(t, f, "landing").Arms("work")[1].Target, "browser")
	for _, s := range st.AllStates() {
		if s.Name != "landing" && s.HasOn("work") && s.Path != "box.own" {
			t.Errorf("the loaded story's %s was edited", s.Path)
		}
	}
}

// TestFreeFormFallbackChoice: an explicit routing.free_form_fallback wins
// over a landing; without one the first landing in path order that
// handles work is used, also inside an import (<alias>__work).
func TestFreeFormFallbackChoice(t *testing.T) {
	for dir, want := range map[string][2]string{
		"landing-explicit":       {"hub", "ask"},
		"landing-nested-offramp": {"area.landing", "work"},
		"landing-first-path":     {"aaa.landing", "work"},
		"landing-import/parent":  {"dev.landing", "dev__work"},
		"landing-import/parent2": {"landing", "work"},
	} {
		f := mustFold(t, storyload.LoadNoEnv(t, "testdata/conformance/"+dir))
		from, intent := fallbackArc(f.Story, f.Story.AllStates())
		if from == nil || from.Path != want[0] || intent != want[1] {
			t.Errorf("%s: fallback %v %q, want %v", dir, from, intent, want)
		}
	}
	if Changes(storyload.LoadNoEnv(t, "testdata/conformance/landing-import/child")) != true {
		t.Error("Changes: the child alone has a landing")
	}
}
