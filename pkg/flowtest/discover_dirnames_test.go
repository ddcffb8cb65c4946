package flowtest

import (
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// A story whose directory name holds glob characters has its fixtures
// found (redteam4: `a[1]` ran none, silently; a `[` with no closing
// bracket stopped the run with "syntax error in pattern").
func TestDiscoverInDirectoriesNamedLikePatterns(t *testing.T) {
	for _, name := range []string{"a[1]", "x*", "q?", "open["} {
		dir := filepath.Join(t.TempDir(), name)
		storytest.WriteTree(t, dir, map[string]string{
			"app.yaml":     "app: {id: g, version: \"1\"}\nroot: a\nintents: {go: {}}\nstates:\n  a:\n    on: {go: [{target: .}]}\n",
			"flows/f.yaml": "test_kind: flow\napp: ../app.yaml\nturns:\n  - intent: {name: go}\n",
		})
		app := filepath.Join(dir, "app.yaml")
		got, ds, err := DiscoverUnder("", nil, []string{app}, "", false, nil)
		if err != nil || len(ds) != 0 || len(got) != 1 || got[0].Path != filepath.Join(dir, "flows", "f.yaml") {
			t.Errorf("%s: files %v, findings %v, error %v; want flows/f.yaml", name, got, ds, err)
		}
		if g := UpstreamGlob(app); g != filepath.Join(dir, "flows", "*.yaml") {
			if m, _ := filepath.Glob(g); len(m) != 1 {
				t.Errorf("%s: UpstreamGlob %q matches %v, want flows/f.yaml", name, g, m)
			}
		}
	}
}
