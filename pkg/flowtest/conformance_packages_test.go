package flowtest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/conformance"
	"kitsoki/pkg/flowtest"
)

// The conformance stories kept beside the package whose rule they probe
// run here, in flowtest's external tests, which link the engine as built:
// run from pkg/fold's or pkg/host's own test binary (both have tests inside
// their package), they made go compile the engine, compose and flowtest a
// second time against that package's internal tests.

// TestConformanceGoldensFold: stories written to probe the fold's
// free-form fallback (conformance probe 13's rule and its neighbours:
// retargeted guarded arms, compounds, terminal, default_intent and
// off-ramp rooms, an explicit routing.free_form_fallback, nested and
// competing landings, imports) and the fold's neighbours kept as upstream
// (a grand-child's view layout read from the top-level alias's directory,
// a dead timeout inside an imported child, an on_error exit without its
// set:, a world["k"] index form left as written) give, fixture by fixture
// and turn by turn, the verdicts, states and views the existing engine
// recorded in each upstream.json (every one under
// pkg/fold/testdata/conformance).
func TestConformanceGoldensFold(t *testing.T) {
	conformance.CheckTree(t, "../fold/testdata/conformance")
}

// TestConformanceGoldensHost: Starlark stories written to probe
// upstream's inspect cassette (probes 10 and 11 and their neighbours:
// interactions played once each and in order, across calls of a fixture;
// probe arguments not compared; exists, glob and read answers; misses
// naming every interaction) and its script path fallback (probe 12, run
// from the directory its story is below), and host.run with YAML integer
// args and timeout (refused upstream, run here: a documented difference)
// and with the same values quoted, read through {{ world.n }}, a slot or
// an imported child (refused upstream) or in forms both run (a negative
// one, an on_complete chain's), a cwd that does not exist, and a
// stubbed decide whose schema lies outside schemas/ (not validated against
// it), a git_worktree repo: that names no directory, host.workspace_manager.get with its program absent and with a stand-in for it on PATH, a
// fixture's host_bindings naming an interface an import lifted (`kid__ticket`,
// `kid__gk__ticket`), a script sidecar declaring through aliases and merge keys give, fixture by fixture and turn by turn, the verdicts, states and
// views the existing engine recorded (pkg/host/testdata/conformance).
func TestConformanceGoldensHost(t *testing.T) {
	root := filepath.Join("..", "host", "testdata", "conformance")
	for _, dir := range []string{"inspect", "probe10", "probe11", "run-int-literals", "run-int-quoted", "run-int-world", "run-int-agree", "run-bad-cwd", "stub-schema-anywhere", "git-worktree-missing-repo", "workspace-manager-absent", "fixture-bindings-lifted", "binding-empty", "star-sidecar-aliases"} {
		t.Run(dir, func(t *testing.T) {
			conformance.Check(t, filepath.Join(root, dir), "", flowtest.Options{})
			conformance.CheckAborts(t, filepath.Join(root, dir))
		})
	}
	t.Run("host-bindings-real-agent", func(t *testing.T) {
		// its bin/claude is a STAND-IN for the claude CLI (which cannot
		// run here): under host_bindings host.agent.ask reaches the
		// claude on PATH, as upstream's did (README.md there)
		dir := filepath.Join(root, "host-bindings-real-agent")
		got := standInClaude(t, dir)
		conformance.Check(t, dir, "", flowtest.Options{})
		data, err := os.ReadFile(got)
		if err != nil {
			t.Fatalf("the claude stand-in was never started: %v", err)
		}
		if n := strings.Count(string(data), "ARGS: "); n != 2 {
			t.Errorf("the claude stand-in ran %d times, want 2 (one call per fixture)", n)
		}
	})
	t.Run("agent-prompt-sources", func(t *testing.T) {
		// bin/claude is a STAND-IN for the claude CLI that keeps the
		// prompts it is sent: ask's and converse's inline text reaches
		// it as written, {% %} tags unparsed, where decide's and task's
		// are rendered (README.md there)
		dir := filepath.Join(root, "agent-prompt-sources")
		got := standInClaude(t, dir)
		conformance.Check(t, dir, "", flowtest.Options{})
		data, err := os.ReadFile(got)
		if err != nil {
			t.Fatalf("the claude stand-in was never started: %v", err)
		}
		for _, want := range []string{"A {% if %} x", "K {% if %}", "R {% for %}", "X {% endif %} ", "\np/bad.md\n", "OK yes"} {
			if !strings.Contains(string(data), want) {
				t.Errorf("no prompt holding %q reached the stand-in; it read:\n%s", want, data)
			}
		}
	})
	t.Run("extract-no-resolver", func(t *testing.T) {
		// an extract with a prompt, or with neither a prompt nor a
		// persona, fails before any agent starts: bin/claude (a
		// STAND-IN) never runs (README.md there)
		dir := filepath.Join(root, "extract-no-resolver")
		got := standInClaude(t, dir)
		conformance.Check(t, dir, "", flowtest.Options{})
		if data, err := os.ReadFile(got); err == nil {
			t.Errorf("the claude stand-in ran: %s", data)
		}
	})
	t.Run("claude-raw-stdout", func(t *testing.T) {
		// bin/claude is a STAND-IN for the claude CLI that exits 0
		// with no result envelope: its stdout is the reply (README.md there)
		dir := filepath.Join(root, "claude-raw-stdout")
		standInClaude(t, dir)
		conformance.Check(t, dir, "", flowtest.Options{})
	})
	t.Run("ask-default-result", func(t *testing.T) {
		// bin/claude is a STAND-IN for the claude CLI: ask binds
		// {stdout, exit_code, ok} from its text, converse {answer,
		// session_id} (README.md there)
		dir := filepath.Join(root, "ask-default-result")
		standInClaude(t, dir)
		conformance.Check(t, dir, "", flowtest.Options{})
	})
	t.Run("decide-default-validator", func(t *testing.T) {
		// bin/claude is a STAND-IN for the claude CLI that never submits:
		// decide reads a fenced block, else fails in upstream's validator
		// words with the reply's data (README.md there)
		dir := filepath.Join(root, "decide-default-validator")
		standInClaude(t, dir)
		conformance.Check(t, dir, "", flowtest.Options{})
	})
	t.Run("job-agent-args-refused", func(t *testing.T) {
		// a background host.agent.task with no agent: is refused before
		// any agent starts: bin/claude (a STAND-IN) never runs (README.md)
		dir := filepath.Join(root, "job-agent-args-refused")
		got := standInClaude(t, dir)
		conformance.Check(t, dir, "", flowtest.Options{})
		if data, err := os.ReadFile(got); err == nil {
			t.Errorf("the claude stand-in ran: %s", data)
		}
	})
	t.Run("cassette-miss-real-handler", func(t *testing.T) {
		// the fixtures append to their cassettes: run a copy; bin/claude
		// is a STAND-IN for the claude CLI (README.md there)
		src := filepath.Join(root, "cassette-miss-real-handler")
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		got := filepath.Join(t.TempDir(), "got.txt")
		t.Setenv("PATH", filepath.Join(dir, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
		t.Setenv("GOT", got)
		conformance.Check(t, dir, "", flowtest.Options{})
		want, err := filepath.Glob(filepath.Join(src, "upstream-cassettes", "*.yaml"))
		if err != nil || len(want) == 0 {
			t.Fatalf("no upstream-cassettes/*.yaml (%v)", err)
		}
		for _, w := range want {
			wb, err := os.ReadFile(w)
			if err != nil {
				t.Fatal(err)
			}
			gb, err := os.ReadFile(filepath.Join(dir, "flows", "cassettes", filepath.Base(w)))
			if err != nil {
				t.Fatal(err)
			}
			if string(gb) != string(wb) {
				t.Errorf("flows/cassettes/%s after the run differs from upstream's (upstream-cassettes/):\n--- got\n%s\n--- upstream\n%s", filepath.Base(w), gb, wb)
			}
		}
		data, _ := os.ReadFile(got)
		if n := strings.Count(string(data), "ARGS: "); n != 2 {
			t.Errorf("the claude stand-in ran %d times, want 2 (host.agent.ask in none-ask and new-ask)", n)
		}
	})
	t.Run("prompt-unopenable-inline", func(t *testing.T) {
		// no claude on PATH: the real agents fail as upstream's did,
		// after the prompt is read as inline text (README.md there)
		t.Setenv("PATH", t.TempDir())
		conformance.Check(t, filepath.Join(root, "prompt-unopenable-inline"), "", flowtest.Options{})
	})
	t.Run("host-bindings-no-claude", func(t *testing.T) {
		// no claude on PATH: the real agents fail as upstream's did
		t.Setenv("PATH", t.TempDir())
		dir := filepath.Join(root, "host-bindings-no-claude")
		conformance.Check(t, dir, "", flowtest.Options{})
		// converse's and extract's failures are domain errors with data
		want := map[string]string{"converse.yaml": `"session_id":"`, "extract.yaml": `"data":{"resolved_by":"no_match","submitted":null}`}
		files, _, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, "", false, nil)
		if err != nil {
			t.Fatal(err)
		}
		rep := flowtest.NewReport(flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(context.Background(), files))
		for _, r := range rep.Results {
			w, ok := want[filepath.Base(r.File)]
			if !ok {
				continue
			}
			delete(want, filepath.Base(r.File))
			var got []string
			for _, ev := range r.Turns[0].Events {
				if ev.Kind == "harness.returned" {
					got = append(got, string(ev.Payload))
				}
			}
			if len(got) != 1 || !strings.Contains(got[0], w) {
				t.Errorf("%s: harness.returned %v, want one holding %s", r.File, got, w)
			}
		}
		if len(want) > 0 {
			t.Errorf("fixtures not run: %v", want)
		}
	})
	t.Run("no-claude-domain-view", func(t *testing.T) {
		// no claude on PATH: every verb's failure is a domain error, so the
		// view is the rig's from the replayed world (c=0.000000)
		t.Setenv("PATH", t.TempDir())
		conformance.Check(t, filepath.Join(root, "no-claude-domain-view"), "", flowtest.Options{})
	})
	t.Run("probe12", func(t *testing.T) {
		dir, err := filepath.Abs(filepath.Join(root, "probe12"))
		if err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir) // the script path is relative to the working directory
		conformance.Check(t, "story", "", flowtest.Options{})
	})
	t.Run("workspace-manager-get", func(t *testing.T) {
		dir := filepath.Join(root, "workspace-manager-get")
		standin, err := filepath.Abs(filepath.Join(dir, "standin"))
		if err != nil {
			t.Fatal(err)
		}
		// a stand-in for upstream's workspace-manager program, first on PATH
		t.Setenv("PATH", standin+string(filepath.ListSeparator)+os.Getenv("PATH"))
		conformance.Check(t, dir, "", flowtest.Options{})
	})
}

// standInClaude puts dir/bin (a STAND-IN claude that appends its argv to
// $GOT) first on PATH and returns the file $GOT names.
func standInClaude(t *testing.T, dir string) string {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join(dir, "bin"))
	if err != nil {
		t.Fatal(err)
	}
	got := filepath.Join(t.TempDir(), "got.txt")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("GOT", got)
	return got
}
