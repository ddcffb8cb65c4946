package main

import (
	"fmt"
	"testing"
)

// The host stories gen writes load here and their fixtures run with no
// Go runtime text in any failure, view or event; every stub form, call
// form and host assertion is drawn; the same seed writes the same bytes.
func TestHostStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 30
	dir := writeSeeded(t, func(d string, n int, s uint64) error { return writeHost(d, n, s, false, false) }, n, 11, "000/app.yaml", "001/flows/f0.yaml", "001/flows/f1.yaml")
	want := []string{
		// stub forms
		"by_call:", "by_op:", "delay:", "infra_error:", "error:", "request_clarification:", "host.agent:",
		"host.local_files:", "host.git.status:", "host.nope:",
		// call forms
		"background: true", "on_complete:", "on_error:", "iface.ticket.", "host.git.", "host.jobs.answer_clarification",
		"{{ result }}", "id: r-{{ world.n }}",
		// assertions
		"expect_host_calls:", "expect_no_host_calls:", "expect_inbox:", "expect_jobs:", "expect_world:",
		"expect_state:", "expect_events:", "advance_clock:", "times:",
	}
	files := storyFixtures(t, dir, n, 2)
	assertDrawn(t, dir, want)
	runClean(t, files, n)
}

// hostSim follows arcs and on_error redirects, counts the calls a turn
// dispatches, lands a job's on_complete at its advance, and stops
// predicting once a job is left pending.
func TestHostSim(t *testing.T) {
	t.Parallel()
	job := m{"invoke": "host.run", "background": true, "on_complete": []any{
		m{"set": m{"s": "{{ world.last_job_result.stdout }}"}},
		m{"target": "failed", "when": "world.last_job_status == 'failed'"},
		m{"target": "done"},
	}}
	states := m{
		"idle": m{"on": m{
			"run": []any{m{"target": "work"}},
			"bg":  []any{m{"target": ".", "effects": []any{job}}},
		}},
		"work": m{"on": m{}, "on_enter": []any{
			m{"invoke": "iface.ticket.search", "id": "g1"},
			m{"invoke": "host.run", "id": "r-{{ world.n }}", "on_error": "failed"},
			m{"invoke": "host.nope"},
		}},
		"failed": m{"on": m{}, "on_enter": []any{m{"invoke": "host.inbox.add"}}},
		"done":   m{"on": m{}},
	}
	sim := &hostSim{states: states, stubs: m{"host.run": m{"error": "boom"}, "host.local_files": m{"data": m{}}}, cur: "idle"}
	if st, ok := sim.intent("run"); st != "failed" || !ok {
		t.Fatalf("run: %q %v, want the on_error redirect to failed", st, ok)
	}
	want := [][2]string{{"host.local_files.ticket.search", "g1"}, {"host.run", ""}, {"host.inbox.add", ""}}
	if fmt.Sprint(sim.calls) != fmt.Sprint(want) {
		t.Errorf("calls %v, want %v (host.nope is not dispatched after the redirect)", sim.calls, want)
	}
	for _, c := range []struct {
		stub m
		want string
	}{
		{m{"data": m{"stdout": "x"}}, "done"},
		{m{"data": m{"stdout": "x"}, "error": "bad"}, "failed"},
		{m{"error": "bad"}, "idle"}, // no data: the chain fails, no target
	} {
		sim = &hostSim{states: states, stubs: m{"host.run": c.stub}, cur: "idle"}
		if st, ok := sim.intent("bg"); st != "idle" || !ok {
			t.Fatalf("bg: %q %v", st, ok)
		}
		if sim.advance(); sim.cur != c.want || sim.lost {
			t.Errorf("stub %v: job landed at %q (lost %v), want %q", c.stub, sim.cur, sim.lost, c.want)
		}
	}
	sim = &hostSim{states: states, stubs: m{"host.run": m{"data": m{}}}, cur: "idle"}
	sim.intent("bg")
	if _, ok := sim.intent("run"); ok {
		t.Errorf("predicted while a job was left pending")
	}
}

// The -real host stories load here and their fixtures run the real
// built-ins (each fixture in its own working directory) with no Go
// runtime text in any failure, view or event; every handler and argument
// form promised is drawn; the same seed writes the same bytes.
func TestHostRealStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 20
	dir := writeSeeded(t, func(d string, n int, s uint64) error { return writeHostReal(d, n, s, false) }, n, 5, "000/app.yaml", "000/flows/f0.yaml")
	want := []string{
		"host_bindings:", "use_orchestrator: true",
		"invoke: host.run", "invoke: host.artifacts_dir", "invoke: host.append_to_file", "invoke: host.inbox.add",
		"invoke: host.transport.post", "invoke: host.jobs.answer_clarification", "invoke: host.ide.", "invoke: host.chat.",
		"args:", "timeout:", "cwd:", "fail_on_error:", "mode:", "artifacts_root:", "phase_id:", "author:",
		"on_error: ../b", "{{ result }}", "stdout_json",
		"expect_files:", "content_matches:", "must_not_exist: true", "invoke: host.agent.search",
	}
	files := storyFixtures(t, dir, n, 1)
	assertDrawn(t, dir, want)
	runClean(t, files, n)
}

// The -real -vcs host stories load here and their fixtures run the real
// git, go and ticket built-ins on the repository, module and tickets their
// setup makes (each fixture in its own working directory) with no Go
// runtime text in any failure, view or event; every handler, op form and
// job promised is drawn; the same seed writes the same bytes.
func TestHostVCSStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 8
	dir := writeSeeded(t, func(d string, n int, s uint64) error { return writeHostVCS(d, n, s, false) }, n, 730000, "000/app.yaml", "000/flows/f0.yaml")
	want := []string{
		"host_bindings:", "invoke: host.git\n", "invoke: host.git.", "invoke: iface.vcs.", "invoke: host.git_worktree",
		"invoke: iface.workspace.list", "invoke: host.local", "invoke: host.local_files.ticket", "invoke: iface.ticket.",
		"invoke: host.workspace_manager.get", "op: commit", "op: push", "op: cleanup_scan", "op: comment", "op: transition",
		"stage_all:", "files:", "background: true", "on_complete:", "advance_clock:", "on_error: ../b", "expect_files:",
	}
	files := storyFixtures(t, dir, n, 1)
	assertDrawn(t, dir, want)
	runClean(t, files, n)
}
