package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAbortProblems holds the abort check to what upstream's abort tells:
// the turn it names fails as a turn here, no turn before it does, and a
// turn before it may fail its expectations (upstream goes on past those).
func TestAbortProblems(t *testing.T) {
	app, err := filepath.Abs("../../../pkg/engine/testdata/conformance/with-walk-error/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const at2 = `kitsoki test flows: run flow "f.yaml": turn 2: RunIntent: effect invoke "host.ok" with "x": expr eval "world.art.y": cannot fetch y from <nil> (1:11)`
	at3 := strings.Replace(at2, "turn 2", "turn 3", 1)
	cases := []struct {
		name, turns, upstream, want string
	}{
		{"expectation failed before", `
  - { intent: { name: whenf }, expect_state: nowhere }
  - { intent: { name: back }, expect_state: s0 }
  - { intent: { name: arm }, expect_state: a1 }`, at3, ""},
		{"turn failed before", `
  - { intent: { name: arm }, expect_state: a1 }
  - { intent: { name: arm }, expect_state: a1 }`, at2, "turn 1 failed as a turn before turn 2"},
		{"named turn passed", `
  - { intent: { name: whenf }, expect_state: w1 }
  - { intent: { name: back }, expect_state: s0 }`, at2, "turn 2 did not fail"},
		{"named turn failed its expectation only", `
  - { intent: { name: whenf }, expect_state: w1 }
  - { intent: { name: back }, expect_state: nowhere }`, at2, "turn 2 did not fail"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fixture := filepath.Join(t.TempDir(), "f.yaml")
			body := "test_kind: flow\napp: " + app + "\ninitial_state: s0\nuse_orchestrator: true\n" +
				"host_handlers:\n  host.ok: { data: { v: { y: Y } } }\nturns:" + c.turns + "\n"
			if err := os.WriteFile(fixture, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			probs := abortProblems(app, fixture, c.upstream)
			if c.want == "" {
				if len(probs) != 0 {
					t.Errorf("problems %q, want none", probs)
				}
				return
			}
			if len(probs) != 1 || !strings.Contains(probs[0], c.want) {
				t.Errorf("problems %q, want one naming %q", probs, c.want)
			}
		})
	}
}
