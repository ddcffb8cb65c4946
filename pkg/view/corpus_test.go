package view

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kitsoki/internal/testing/golden"
	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/fold"
	"kitsoki/pkg/story"
)

// corpusCase renders one state of a corpus story against a world taken
// from (or reached by) one of its flow fixtures. match is the fixture's
// expect_view_matches, when it has one for that turn.
type corpusCase struct {
	name  string
	story string
	state string
	world map[string]any
	match string
}

func corpusCases() []corpusCase {
	forecastRows := []any{
		map[string]any{"date": "2026-12-01", "desc": "Clear sky", "hi": 14.2, "lo": 6.1, "precip": 0, "wind": 11},
		map[string]any{"date": "2026-12-02", "desc": "Overcast", "hi": 12, "lo": 7, "precip": 1.5, "wind": 9},
	}
	climateRows := []any{
		map[string]any{"month": "Jan", "mean_temp": 5.9, "precip": 40.5},
		map[string]any{"month": "Aug", "mean_temp": 29.1, "precip": 80},
	}
	return []corpusCase{
		{name: "cloak-foyer", story: "cloak", state: "foyer", world: map[string]any{"wearing_cloak": true, "disturbance": 0, "message_rumpled": false}},
		{name: "cloak-cloakroom-hung", story: "cloak", state: "cloakroom", world: map[string]any{"wearing_cloak": false, "disturbance": 0}},
		{name: "cloak-bar-dark", story: "cloak", state: "bar.dark", world: map[string]any{"wearing_cloak": true, "disturbance": 2}},
		{name: "cloak-bar-lit", story: "cloak", state: "bar.lit", world: map[string]any{"wearing_cloak": false, "disturbance": 0}},
		{name: "cloak-ended-won", story: "cloak", state: "ended", world: map[string]any{"wearing_cloak": false, "message_rumpled": false}, match: "You have won"},
		{name: "cloak-ended-lost", story: "cloak", state: "ended", world: map[string]any{"wearing_cloak": false, "disturbance": 3, "message_rumpled": true}, match: "You have lost"},
		{name: "weather-lobby", story: "weather-report", state: "lobby", world: map[string]any{"place": ""}},
		{name: "weather-forecast", story: "weather-report", state: "report", world: map[string]any{
			"mode": "forecast", "place": "Tokyo, Japan", "coords": "35.69°N, 139.69°E · tz Asia/Tokyo", "headline": "Clear sky, 14°C",
			"current": map[string]any{"temp": 14.2, "temp_unit": "°C", "desc": "Clear sky", "humidity": 40, "wind": 11, "wind_unit": "km/h"},
			"rows":    forecastRows}, match: "5-day forecast"},
		{name: "weather-climate", story: "weather-report", state: "report", world: map[string]any{
			"mode": "climate", "place": "Tokyo, Japan", "coords": "35.69°N, 139.69°E · tz Asia/Tokyo",
			"headline":        "2023 annual mean 16.7°C · warmest Aug · wettest Jun · 1369.4 mm total",
			"climate_summary": map[string]any{"year": 2023, "annual_mean": 16.7, "warmest": "Aug", "coldest": "Jan", "wettest": "Jun", "precip_total": "1369.4 mm"},
			"rows":            climateRows}, match: "climate profile"},
		{name: "weather-failed", story: "weather-report", state: "failed", world: map[string]any{"last_error": `no place found matching "Zzqxville"`}, match: "no place found matching"},
		{name: "error-banner-bounced", story: "error_banner", state: "bounced", world: map[string]any{"last_error": "simulated host failure"}},
		{name: "fix-tests-idle", story: "fix-tests", state: "idle"},
		{name: "inbox-demo-dispatch", story: "inbox-demo", state: "dispatch"},
		{name: "pr-refinement-root", story: "pr-refinement", state: ""},
		{name: "routing-demo-root", story: "routing-demo", state: ""},
		{name: "typedview-room", story: "typedview_after_bind", state: "room", world: map[string]any{"scan_result": "3 findings"}},
		{name: "proposal-terminal", story: "proposal_smoke", state: "terminal"},
		{name: "proposal-reviewing", story: "proposal_smoke", state: "reviewing"},
	}
}

func TestCorpusGolden(t *testing.T) {
	stories := map[string]*story.Story{}
	for _, c := range corpusCases() {
		t.Run(c.name, func(t *testing.T) {
			st := stories[c.story]
			if st == nil {
				st = storyload.LoadNoEnv(t, corpus(c.story))
				stories[c.story] = st
			}
			state := c.state
			if state == "" {
				state = st.Root
			}
			if st.State(state) == nil {
				t.Fatalf("%s has no state %q", c.story, state)
			}
			world := defaults(st)
			for k, v := range c.world {
				world[k] = v
			}
			got := render(t, newRenderer(st), state, world)
			if c.match != "" && !regexp.MustCompile(c.match).MatchString(got) {
				t.Errorf("expect_view_matches %q fails on:\n%s", c.match, got)
			}
			checkRender(t, c.name, got)
		})
	}
}

// TestImportedViewRoots: a state folded in from an import renders its
// extends: layout from its own story's views/ directory (frontier_event
// imports ../robbery as "bandits").
func TestImportedViewRoots(t *testing.T) {
	st := storyload.LoadNoEnv(t, corpus("frontier_event"))
	f, r, world := foldedRenderer(t, st)
	var robberyExtends []string
	for _, s := range allStates(f.Story.States) {
		if !strings.HasPrefix(s.Path, "bandits.") || s.View == nil || s.View.Kind != "extends" {
			continue
		}
		robberyExtends = append(robberyExtends, s.Path)
		got, err := r.RenderView(s.Path, world, nil)
		if err != nil {
			t.Errorf("%s: %v", s.Path, err)
			continue
		}
		// robbery's own base.pongo prints its status line.
		if !strings.Contains(got, "Party:") {
			t.Errorf("%s did not render robbery's layout:\n%s", s.Path, got)
		}
	}
	if len(robberyExtends) == 0 {
		// robbery's rooms may all be typed lists; then the root renders.
		got, err := r.RenderView(f.Story.Root, world, nil)
		if err != nil || got == "" {
			t.Fatalf("root render: %q, %v", got, err)
		}
	}
	for _, p := range robberyExtends[:min(1, len(robberyExtends))] {
		got, _ := r.RenderView(p, world, nil)
		checkRender(t, "frontier-"+strings.ReplaceAll(p, ".", "-"), got)
	}
}

func allStates(list []*story.State) []*story.State {
	var out []*story.State
	for _, s := range list {
		out = append(out, s)
		out = append(out, allStates(s.Children)...)
	}
	return out
}

// TestCorpusAllStates renders every state of every copied corpus story
// against its world defaults; the renders are kept as one golden file per
// story. No state may fail to render.
func TestCorpusAllStates(t *testing.T) {
	for _, name := range []string{"cloak", "weather-report", "fix-tests", "inbox-demo", "pr-refinement", "routing-demo", "typedview_after_bind", "parallel_smoke", "error_banner", "proposal_smoke", "robbery", "frontier_event"} {
		t.Run(name, func(t *testing.T) {
			st := storyload.LoadNoEnv(t, corpus(name))
			f, r, world := foldedRenderer(t, st)
			var b strings.Builder
			for _, s := range allStates(f.Story.States) {
				got, err := r.RenderView(s.Path, world, nil)
				if err != nil {
					t.Errorf("%s: %v", s.Path, err)
				}
				b.WriteString("=== " + s.Path + "\n" + got + "\n")
			}
			checkRender(t, "all-"+name, b.String())
		})
	}
}

// TestNestedImportViewRoots: a grand-child's extends: layout comes from
// the top-level alias's story, as the existing engine reads it (probe and
// its report: pkg/fold/testdata/conformance/view-root; docs/compat/fold.md
// "Per-alias view root"); validate warns (view-root). States of the top
// story and of the child keep their own.
func TestNestedImportViewRoots(t *testing.T) {
	st := storyload.LoadNoEnv(t, "testdata/nested/top")
	f, err := fold.New(st, fold.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := FromFolded(f)
	wantRenders(t, r, nil, map[string]string{
		"hub":      "hub from TOP base",
		"m.start":  "mid start from MID base",
		"m.l.room": "leaf room from MID base",
	})
	if d := f.UpstreamViewDir("m.l.room"); !strings.HasSuffix(d, "mid") {
		t.Errorf("upstream would use %s", d)
	}
	// Without dirFor, the renderer still finds the innermost wrapper that
	// carries its child (unfolded stories) or falls back to the story dir.
	if got := render(t, newRenderer(f.Story), "hub", nil); got != "hub from TOP base" {
		t.Errorf("default dir: %q", got)
	}
}

// checkRender compares got with testdata/golden/<name>.txt, rewriting it under -update.
func checkRender(t *testing.T, name, got string) {
	t.Helper()
	golden.CheckString(t, filepath.Join("testdata", "golden", name+".txt"), got)
}
