package fold_test

import (
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/conformance"
	"kitsoki/pkg/flowtest"
)

// TestConformance: stories written to probe the free-form fallback
// (conformance probe 13's rule and its neighbours: retargeted guarded
// arms, compounds, terminal, default_intent and off-ramp rooms, an
// explicit routing.free_form_fallback, nested and competing landings,
// imports) and the fold's neighbours kept as upstream (a grand-child's
// view layout read from the top-level alias's directory, a dead timeout
// inside an imported child, an on_error exit without its set:, a
// world["k"] index form left as written) give, fixture by fixture and turn by turn, the verdicts,
// states and views the existing engine recorded in each upstream.json.
func TestConformance(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/conformance/landing-*")
	dirs = append(dirs, "testdata/conformance/landing-import/parent", "testdata/conformance/landing-import/parent2",
		"testdata/conformance/view-root/parent", "testdata/conformance/child-timeout/parent",
		"testdata/conformance/exit-neighbours/parent")
	for _, dir := range dirs {
		if filepath.Base(dir) == "landing-import" {
			continue
		}
		t.Run(dir, func(t *testing.T) {
			conformance.Check(t, dir, "", flowtest.Options{})
		})
	}
}
