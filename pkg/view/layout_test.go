package view

import (
	"testing"

	"kitsoki/internal/testing/storyload"
)

// Views upstream recorded (reference runtime-probes/traces/cherny_ws.jsonl
// and flow-probes/hh.json), rebuilt in testdata/layout: banner widths,
// prose wrapping at 80 (hyphens uncounted), kv alignment and wrapping,
// lists with hints, a choice with a param, and an extends layout with the
// layout's own blank lines kept.

func TestUpstreamTypedConfigure(t *testing.T) {
	st := storyload.LoadNoEnv(t, "testdata/layout")
	r := newRenderer(st)
	want := "═════════════════════════════════════════════════\n  CONFIGURE  ·  Say what you want — then launch\n═════════════════════════════════════════════════\n\nA Cherny loop iterates an agent toward a goal until a gate proves it met — or a\nbudget stops it. **Say what you want in your own words.** When you describe ad\nhoc work, the gate planner chooses a script gate, an agent-review gate, or a\nhybrid of both based on what would actually prove the work is done.\n\nGoal\n\nGet `go test ./internal/ratelimit` green\n\nArtifact under test:  (none — the maker works from the repo)\n\nThe gate\n\n**script** — the gate is this command; it passes iff it exits 0:\n\ngo test ./internal/ratelimit/\n\nBudgets\n\nIteration cap:  8\nCost cap:       (disabled)\n\nActions:\n\n  launch  prove the gate is RED, then run to completion\n  abort   abandon the loop\n  look\n\n[↑/↓ move • Enter pick • Tab chat • Esc cancel]"
	if got := render(t, r, "configuring", defaults(st)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s\n(got %q)", got, want, got)
	}
}

func TestUpstreamExtendsWorkspaceError(t *testing.T) {
	st := storyload.LoadNoEnv(t, "testdata/layout")
	r := newRenderer(st)
	w := with(defaults(st), "last_error", `workspace.create: branch "cherny-loop/run" exists but reattach failed: already checked out`)
	want := "\niter 0/8  ·  script gate  ·  $0 spent\n\nWorkspace error — could not mint the worktree\n\n════════════════════════════════════════════════════════════════════════════════\n  WORKSPACE ERROR  ·  The maker only runs in an isolated worktree — none could be minted\n════════════════════════════════════════════════════════════════════════════════\n\nCould not create the worktree for branch `cherny-loop/run` (id `cherny-loop`). The\nloop will not run the maker in your checkout.\n\nworkspace.create: branch \"cherny-loop/run\" exists but reattach failed: already checked out\n\nCommon cause: the branch is already checked out by another worktree. Pick a\ndifferent `workspace_branch` / `workspace_id` and `reconfigure`, or `retry`.\n\nActions\n\n• retry        re-attempt the worktree mint\n• reconfigure  choose a different branch/id\n• abort\n• look\n\n"
	if got := render(t, r, "workspace_error", w); got != want {
		t.Errorf("got:\n%s\nwant:\n%s\n(got %q)", got, want, got)
	}
}

func TestUpstreamChoiceParamAndKVWrap(t *testing.T) {
	st := storyload.LoadNoEnv(t, "testdata/layout")
	r := newRenderer(st)
	w := with(defaults(st), "summary", "TKT-001: ESC silently discarded during ModeAwaitingLLM — routeKey guard too narrow")
	want := "Ticket:      TKT-001 — TUI hangs on ESC\nSummary:     TKT-001: ESC silently discarded during ModeAwaitingLLM — routeKey\n             guard too narrow\nConfidence:  0.95\n\nActions:\n\n  continue               post the proposal and advance to implementing\n  refine [what to redo]  re-draft with feedback\n  quit                   abandon the pipeline\n  look                   re-render\n\n[↑/↓ move • Enter pick • Tab chat • Esc cancel]"
	if got := render(t, r, "proposing", w); got != want {
		t.Errorf("got:\n%s\nwant:\n%s\n(got %q)", got, want, got)
	}
}
