package flowtest

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
)

// A fixture whose real host.run prints for ever (`yes`, as a mutated slot
// value makes it: hunt135, mutate seed 2026200 story 079 fixture m5) ends
// with host.run's domain error instead of holding the run, and the
// fixtures after it in the shared working directory still run. Before the
// bound, Run waited on the command until the deadline below.
func TestEndlessHostRunOutputEndsTheFixture(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a POSIX shell")
	}
	fixture := func(c, expect string) string {
		return `test_kind: flow
app: ../app.yaml
initial_state: a
use_orchestrator: true
host_bindings: { host.run: host.run }
turns:
  - intent: { name: sh, slots: { c: "` + c + `" } }
    ` + expect + `
`
	}
	dir := t.TempDir()
	storytest.WriteTree(t, dir, map[string]string{
		"app.yaml": `app: { id: endless-output, version: 0.1.0 }
hosts: [host.run]
intents:
  sh: { slots: { c: { type: string } } }
root: a
states:
  a:
    view: "le={{ world.last_error }}"
    on:
      sh:
        - target: .
          effects:
            - invoke: host.run
              with: { cmd: bash, args: ["-c", "eval \"$1\"", sh, "{{ slots.c }}"] }
`,
		"flows/a.yaml": fixture("true", `expect_world: { last_error: "" }`),
		"flows/b.yaml": fixture("yes", `expect_world: { last_error: "host.run: stopped after printing more than 1024 MiB" }`),
		"flows/c.yaml": fixture("true", `expect_world: { last_error: "" }`),
	})
	files, _, err := DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, filepath.Join(dir, "flows", "*.yaml"), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rs := NewRunner(Options{Jobs: 1, WorkDir: t.TempDir()}).Run(ctx, files)
	if ctx.Err() != nil {
		t.Fatalf("the run was still waiting on host.run of yes at the deadline: %v", ctx.Err())
	}
	if len(rs) != 3 {
		t.Fatalf("%d results, want 3", len(rs))
	}
	for _, r := range rs {
		if !r.Passed() {
			t.Errorf("%s: %+v %+v", r.Name, r.Fatal, r.Failures)
		}
	}
}
