package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

const corpus = "../story/testdata/corpus"

func TestRunCorpusClean(t *testing.T) {
	files, err := Expand([]string{corpus + "/..."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 5 {
		t.Fatalf("want the 5 corpus stories, got %v", files)
	}
	res := Run(files, Options{})
	// conflict-resolve's rebase_continue arc routes on a key its own call
	// binds: the existing engine never re-reads that emit after the bind
	// (conformance probe 02), and the emit-after-bind warning says so;
	// fix-tests runs the test_cmd its start intent's slot sets through
	// bash -c, twice, and shell-injection says so; its three write_report
	// calls pass {{ world.cycle }} and {{ world.max_cycles }} whole, which
	// hold YAML whole numbers (a set: 0, a default 3) the existing engine's
	// host.run refuses as uint64 (conformance run-int-world), and
	// host-run-int says so; its conflict state's host.agent.task writes its
	// prompt file under with.prompt, which the existing engine's task never
	// reads (it sends an empty prompt: conformance agent-prompt-sources),
	// and agent-args says so
	var rest []diag.Diagnostic
	emitAfterBind, shellInjection, hostRunInt, taskPrompt := 0, 0, 0, 0
	for _, d := range res.Diagnostics {
		switch {
		case d.Rule == "emit-after-bind" && strings.HasSuffix(d.File, "conflict.yaml"):
			emitAfterBind++
		case d.Rule == "shell-injection" && strings.HasSuffix(d.File, "pipeline.yaml"):
			shellInjection++
		case d.Rule == "host-run-int" && strings.HasSuffix(d.File, "pipeline.yaml"):
			hostRunInt++
		case d.Rule == "agent-args" && strings.HasSuffix(d.File, "conflict.yaml"):
			taskPrompt++
		default:
			rest = append(rest, d)
		}
	}
	if len(rest) != 0 || len(res.Invalid) != 0 || emitAfterBind != 2 || shellInjection != 2 || hostRunInt != 6 || taskPrompt != 1 {
		t.Fatalf("corpus must validate clean but for conflict-resolve's 2 emit-after-bind and 1 agent-args and fix-tests' 2 shell-injection and 6 host-run-int warnings, got %v", res.Diagnostics)
	}
}

// A pinned selection whose candidate did not pass in its evidence report is
// reported at the selection: node as a warning: the story still runs;
// `kitsoki eval check` is the gate that fails on it.
func TestRunFailingEvidenceIsWarning(t *testing.T) {
	dir := t.TempDir()
	storytest.CopyTree(t, filepath.Join(corpus, "pr-refinement"), dir)
	room := filepath.Join(dir, "rooms", "merge.yaml")
	b, err := os.ReadFile(room)
	if err != nil {
		t.Fatal(err)
	}
	pinned := "          model: syn:small:text\n"
	if !strings.Contains(string(b), pinned) {
		t.Fatal("corpus merge.yaml no longer pins syn:small:text")
	}
	b = []byte(strings.Replace(string(b), pinned, "          model: syn:large:text\n", 1))
	if err := os.WriteFile(room, b, 0o644); err != nil {
		t.Fatal(err)
	}
	res := Run([]string{filepath.Join(dir, "app.yaml")}, Options{})
	if len(res.Invalid) != 0 {
		t.Fatalf("evidence findings must not make the story invalid: %v", res.Diagnostics)
	}
	var found bool
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Warning && strings.HasSuffix(d.File, "merge.yaml") && strings.Contains(d.Message, "syn:large:text") {
			found = true
		}
	}
	if !found {
		t.Fatalf("want an evidence warning at rooms/merge.yaml naming the pinned model, got %v", res.Diagnostics)
	}
}

func TestRunReportsErrorsPerFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad", "app.yaml")
	good := filepath.Join(dir, "good", "app.yaml")
	for p, body := range map[string]string{
		bad:  "app: {id: bad}\nroot: nowhere\nstates:\n  start: {}\n",
		good: "app: {id: good}\nroot: start\nstates:\n  start: {terminal: true}\n",
	} {
		storytest.WriteFile(t, p, body)
	}
	files, err := Expand([]string{dir + "/..."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := Run(files, Options{Jobs: 2})
	if !res.Invalid[bad] || res.Invalid[good] {
		t.Fatalf("invalid = %v; diagnostics %v", res.Invalid, res.Diagnostics)
	}
	for _, d := range res.Diagnostics {
		if d.File != bad {
			t.Fatalf("diagnostic outside the bad story: %v", d)
		}
	}
}

// The operator's plugin profile, found upward from the story, is checked
// with the story: unknown plugin ids warn, a malformed profile is an error
// at its own file and line.
func TestRunReportsPluginProfileProblems(t *testing.T) {
	dir := t.TempDir()
	app := filepath.Join(dir, "stories", "s", "app.yaml")
	storytest.WriteFile(t, app, "app: {id: s}\nroot: start\nstates:\n  start: {terminal: true}\n")
	profile := filepath.Join(dir, ".kitsoki", "plugins.yaml")

	storytest.WriteFile(t, profile, "version: 1\ndisable: [transport.nope]\n")
	res := Run([]string{app}, Options{})
	var warned bool
	for _, d := range res.Diagnostics {
		if d.File == profile && d.Severity == diag.Warning && strings.Contains(d.Message, "transport.nope") {
			warned = true
		}
	}
	if !warned || len(res.Invalid) != 0 {
		t.Fatalf("want an unknown-id warning at the profile, got %v (invalid %v)", res.Diagnostics, res.Invalid)
	}

	storytest.WriteFile(t, profile, "version: 1\ndisable: {oops: true}\n")
	res = Run([]string{app}, Options{})
	var failed bool
	for _, d := range res.Diagnostics {
		if d.File == profile && d.Severity == diag.Error && d.Line == 2 {
			failed = true
		}
	}
	if !failed || !res.Invalid[app] {
		t.Fatalf("want a positioned error at %s:2, got %v", profile, res.Diagnostics)
	}

	// --profile is the operator's layer over the upward search, not a
	// replacement: the repository's malformed profile is still reported,
	// and a clean --profile adds nothing.
	other := filepath.Join(dir, "ops.yaml")
	storytest.WriteFile(t, other, "version: 1\n")
	res = Run([]string{app}, Options{ProfilePath: other})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].File != profile || !res.Invalid[app] {
		t.Fatalf("--profile with a clean file over a malformed one: %v", res.Diagnostics)
	}
	storytest.WriteFile(t, profile, "version: 1\n")
	if res = Run([]string{app}, Options{ProfilePath: other}); len(res.Diagnostics) != 0 {
		t.Fatalf("--profile with a clean file: %v", res.Diagnostics)
	}
}

// An ignore comment in a fixture file suppresses that fixture's finding
// (the file's bytes come from the lint's own read), and only its own.
func TestRunFlowIgnoreComments(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml":          "app: {id: ig}\nroot: s\nintents:\n  go: {}\nstates:\n  s:\n    on:\n      go: [{target: s}]\n",
		"flows/quiet.yaml":  "test_kind: flow\ninitial_state: s\nturns:\n  - intent: {name: go}\n    bogus: 1 # kitsoki:ignore flow-unknown-key\n",
		"flows/loud.yaml":   "test_kind: flow\ninitial_state: s\nturns:\n  - intent: {name: go}\n    bogus: 1\n",
		"flows/nested.yaml": "test_kind: flow\ninitial_state: s\nturns:\n  - intent: {name: go}\n    expect_state: nowhere # kitsoki:ignore flow-unknown-state\n",
	})
	res := Run([]string{filepath.Join(dir, "app.yaml")}, Options{Flows: true})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, filepath.Base(d.File)+":"+d.Rule)
	}
	if strings.Join(got, " ") != "loud.yaml:flow-unknown-key" {
		t.Fatalf("want only loud.yaml's unknown key, got %v\n%v", got, res.Diagnostics)
	}
}

// A story read from standard input is checked from those bytes, not from
// the file its name would be (there is none), and its ignore comments
// work: the bytes Run keeps are the ones it checked.
func TestRunStdin(t *testing.T) {
	app := filepath.Join(t.TempDir(), "nowhere", "app.yaml")
	src := []byte("app: {id: s}\nroot: start\nstates:\n  start: {terminal: true}\n  island: {}  # kitsoki:ignore unreachable\n  isle: {}\n")
	res := Run([]string{app}, Options{Stdin: src, Story: story.Options{LookupEnv: noEnv}})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%s:%d:%d:%s", filepath.Base(d.File), d.Line, d.Col, d.Rule))
	}
	if want := []string{"app.yaml:6:3:unreachable"}; !slices.Equal(got, want) || len(res.Invalid) != 0 {
		t.Fatalf("diagnostics %q (invalid %v), want %q:\n%v", got, res.Invalid, want, res.Diagnostics)
	}
}

// The ignore comments of a story that does not parse are still read: one
// naming no rule is reported beside the syntax error.
func TestRunIgnoreCommentsOfUnparsedStory(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml": "app: {id: a}\nroot: start\nstates:\n  start: {terminal: true\n# kitsoki:ignore no-such-rule\n",
	})
	res := Run([]string{filepath.Join(dir, "app.yaml")}, Options{Story: story.Options{LookupEnv: noEnv}})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%d:%d:%s:%s", d.Line, d.Col, d.Severity, d.Rule))
	}
	if want := []string{"3:1:error:yaml-syntax", "5:18:warning:ignore"}; !slices.Equal(got, want) {
		t.Fatalf("diagnostics %q, want %q:\n%v", got, want, res.Diagnostics)
	}
}

// Without Options.Flows the fixtures beside a story are not linted: a
// fixture that cannot run fails the story only with it.
func TestRunWithoutFlowsLintsNoFixture(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml":          "app: {id: ig}\nroot: s\nintents:\n  go: {}\nstates:\n  s:\n    on:\n      go: [{target: s}]\n",
		"flows/loud.yaml":   "test_kind: flow\ninitial_state: s\nturns:\n  - intent: {name: go}\n    bogus: 1\n",
		"flows/broken.yaml": "test_kind: flow\nturns: [\n",
	})
	app := filepath.Join(dir, "app.yaml")
	if res := Run([]string{app}, Options{}); len(res.Diagnostics) != 0 || len(res.Invalid) != 0 {
		t.Fatalf("without Flows: %v (invalid %v)", res.Diagnostics, res.Invalid)
	}
	res := Run([]string{app}, Options{Flows: true})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%s:%s:%s", filepath.Base(d.File), d.Severity, d.Rule))
	}
	if want := []string{"broken.yaml:error:flow-syntax", "loud.yaml:warning:flow-unknown-key"}; !slices.Equal(got, want) || !res.Invalid[app] {
		t.Fatalf("with Flows: %q (invalid %v), want %q", got, res.Invalid, want)
	}
}
