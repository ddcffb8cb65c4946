package view

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
)

// The expected strings in this file are the turn.end views the upstream
// engine wrote for the runtime probes (reference/runtime-probes/traces),
// byte for byte.

func TestUpstreamProbeP6(t *testing.T) {
	st := storyload.LoadNoEnv(t, "testdata/p6")
	r := newRenderer(st)
	w := defaults(st)
	rule := strings.Repeat("═", 40)
	cases := []struct {
		path  string
		world map[string]any
		want  string
	}{
		{"start", w, "START path=start desc=The start room"},
		{"b", w, "B"},
		{"c", with(w, "r", "V"), "C r=V"},
		{"typed", w, "Title b\n\nSome prose.\n\n• one\n• two\n\nKey:    b\nOther:  x\n\n" + rule + "\n  BANNER  ·  sub\n" + rule + "\n\ncode line"},
		{"errroom", w, "ERRROOM plain"},
		{"pick.yes", w, "PICK YES"},
		{"fin", w, "FIN"},
	}
	for _, c := range cases {
		if got := render(t, r, c.path, c.world); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.path, got, c.want)
		}
	}
	// The element whose when: is false is omitted; true shows it.
	got := render(t, r, "typed", with(w, "flag", false))
	if !strings.HasSuffix(got, "code line\n\nhidden") {
		t.Errorf("typed with flag=false: %q", got)
	}
}

func TestUpstreamTransitionView(t *testing.T) {
	st := storyload.LoadNoEnv(t, "testdata/p6")
	r := newRenderer(st)
	tv := st.States[0].Arms("tv")[0].View()
	got, err := r.RenderView("b", defaults(st), map[string]any{transitionViewKey: tv})
	if err != nil || got != "TRANSITION VIEW r=" {
		t.Fatalf("transition view: %q, %v", got, err)
	}
}

func TestUpstreamParallelP9(t *testing.T) {
	st := storyload.LoadNoEnv(t, "testdata/p9")
	r := newRenderer(st)
	w := defaults(st)
	wantRenders(t, r, w, map[string]string{
		"p#p.a.a1|p.b.b1": "P-PARENT\n\nA1\n\nB1",
		"p#p.b.b1|p.a.a1": "P-PARENT\n\nB1\n\nA1", // in the path's order (a fixture's start keeps it: conformance par-start-verbatim)
		"p#p.a.a1|p.b.b2": "P-PARENT\n\nA1\n\nB2",
		"p#p.a.a2|p.b.b3": "P-PARENT\n\nA2\n\nB3",
		"p#p.b.b2|p.b.b2": "P-PARENT\n\nB2\n\nB2", // upstream's corrupt path renders each listed leaf
	})
}

func TestUpstreamParallelSmoke(t *testing.T) {
	st := storyload.LoadNoEnv(t, corpus("parallel_smoke"))
	r := newRenderer(st)
	w := defaults(st)
	if got, want := render(t, r, "clock#clock.calendar.day1|clock.weather.dry", w), "── clock ──\n\nCalendar: day 1.\n\nWeather: dry."; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	if got, want := render(t, r, "clock#clock.calendar.soggy|clock.weather.rain", w), "── clock ──\n\nCalendar: soggy.\n\nWeather: rain."; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	if got := render(t, r, "outside", w); got != "You are outside the clock." {
		t.Errorf("outside: %q", got)
	}
}

// TestUpstreamImports: the views upstream recorded for imports_smoke/parent
// (runtime-probes/traces/imp.jsonl): child views read the projected
// <alias>__ world keys, an override view replaces the child's.
func TestUpstreamImports(t *testing.T) {
	st := storyload.LoadNoEnv(t, corpus("imports_smoke/parent"))
	r, err := ForStory(st)
	if err != nil {
		t.Fatal(err)
	}
	w := map[string]any{"current_ticket": "KIT-42", "sub__ticket_id": "KIT-42", "last_pr_url": "https://example/pr/1"}
	wantRenders(t, r, w, map[string]string{
		"sub.idle":    "Ticket: KIT-42. Ready.\n",
		"sub.working": "[override] Custom working room for KIT-42.\n",
		"pr_landed":   "PR landed: https://example/pr/1.",
		"main":        "Hub. ticket=KIT-42.",
	})
}
