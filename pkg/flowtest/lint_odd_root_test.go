package flowtest

import (
	"kitsoki/pkg/diag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintOddRootStart: an initial_state whose part before "#" is no
// parallel state is warned at, once, whether that part is a state
// (s0#p.ra.x1, c#c.a) or none (zz#q): clock-only fixtures rest there
// (conformance start-odd-root), and one that fires an intent aborts the
// existing engine's whole run; a parallel root's start is not.
func TestLintOddRootStart(t *testing.T) {
	const dir = "../engine/testdata/conformance/start-odd-root"
	st := loadGoldenStory(t, dir)
	const clock = `the part before "#" is no parallel state: both engines rest there while the clock advances`
	for _, name := range []string{"s0.yaml", "compound_own.yaml", "region.yaml", "zz.yaml", "noroot.yaml"} {
		t.Run(name, func(t *testing.T) {
			wantFinding(t, unknownState(lintFixtureFile(t, st, filepath.Join(dir, "flows", name))), clock)
		})
	}
	tmp := t.TempDir()
	fixture := func(start string) string {
		path := filepath.Join(tmp, strings.NewReplacer("#", "_", "|", "_").Replace(start)+".yaml")
		src := "test_kind: flow\napp: app.yaml\ninitial_state: '" + start + "'\nturns:\n- intent: {name: enter}\n"
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const aborts = `the existing engine aborts the whole test run at the first intent`
	wantFinding(t, unknownState(lintFixtureFile(t, st, fixture("s0#p.ra.x1"))), aborts)
	wantFinding(t, unknownState(lintFixtureFile(t, st, fixture("zz#q"))), aborts)
	wantFinding(t, unknownState(lintFixtureFile(t, st, fixture("p#p.ra.x1|p.rb.x1"))), "")
}

// unknownState keeps the flow-unknown-state findings at initial_state.
func unknownState(ds []diag.Diagnostic) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if d.Rule == ruleUnknownState.ID && strings.Contains(d.Message, "initial_state") {
			out = append(out, d)
		}
	}
	return out
}
