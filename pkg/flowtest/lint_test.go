package flowtest

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/diag"
	storylint "kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

func TestLint(t *testing.T) {
	st := storyload.Load(t, rigApp, story.Options{})
	fxs, pds := parse("flows/l.yaml", []byte(`test_kind: flow
initial_state: nowhere
host_handlers:
  host.run: { data: {} }
  host.git: { data: {} }
turns:
  - intent: { name: fly }
    expect_state: bb
  - intent: { name: nosuch }
    expect_error: { code: INTENT_NOT_ALLOWED_IN_STATE }
    expect_state: a
  - intent: { name: go }
    expect_world_unchanged: true
  - intent: { name: go }
    expect_state: ""
    expect_state_in: []
  - intent: { name: go }
    expect_world_full: {}
    expect_events_exact: []
  - advance_clock: 1s
    world_override: { n: 1 }
`))
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	got := lint(st, fxs)
	for _, w := range []struct {
		line int
		rule *diag.Rule
	}{{2, ruleUnknownState}, {5, ruleUnusedStub}, {7, ruleRejected}, {8, ruleUnknownState}, {11, ruleNotChecked}, {13, ruleNotChecked},
		{15, ruleNotChecked}, {16, ruleNotChecked}, {18, ruleNotChecked}, {19, ruleNotChecked}, {21, ruleIgnoredKey}} {
		found := false
		for _, d := range got {
			if d.Line == w.line && d.Rule == w.rule.ID && d.Severity == diag.Warning {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s at line %d in %v", w.rule.ID, w.line, got)
		}
	}
	if len(got) != 11 {
		t.Errorf("want exactly 11 findings (an unknown intent is flow-rejected alone; nosuch under expect_error and host.run are fine; an empty state key is not an unknown state): %v", got)
	}
}

// The findings point at the offending value (the path, the pattern).
func TestLintFilesAndRegex(t *testing.T) {
	st, _ := storylint.Load(rigApp, story.Options{})
	fxs, _ := parse("testdata/none/l.yaml", []byte("test_kind: flow\nrecording: nope.yaml\nturns:\n  - intent: go\n    expect_view_matches: \"(\"\n"))
	got := lint(st, fxs)
	if !hasDiag(got, diag.Error, 2, 12, "testdata/none/nope.yaml does not exist") || !hasDiag(got, diag.Warning, 5, 26, "the turn will always fail") {
		t.Fatalf("%v", got)
	}
}

// A missing file the fixture never opens (a recording on the orchestrator
// path with no input: turn, a cassette on the legacy path) is a warning
// that says so; one it opens is an error that says what follows
// (conformance fixture-empty-drivers, expect-legacy-cassettes-unread).
func TestLintMissingFileOpened(t *testing.T) {
	st, _ := storylint.Load(rigApp, story.Options{})
	fxs, _ := parse("testdata/none/l.yaml", []byte(`test_kind: flow
use_orchestrator: true
recording: r1.yaml
turns: [{intent: {name: go}}]
---
test_kind: flow
use_orchestrator: true
recording: r2.yaml
turns: [{input: hi}]
---
test_kind: flow
use_orchestrator: false
host_cassette: c1.yaml
turns: [{intent: {name: go}}]
---
test_kind: flow
host_cassette: c2.yaml
turns: [{intent: {name: go}}]
`))
	got := lint(st, fxs)
	for _, w := range []struct {
		sev  diag.Severity
		line int
		text string
	}{
		{diag.Warning, 3, "r1.yaml does not exist (paths are relative to the fixture's directory); this fixture never opens it (the orchestrator path reads a recording only"},
		{diag.Error, 8, "r2.yaml does not exist (paths are relative to the fixture's directory); the fixture opens it before its first turn"},
		{diag.Warning, 13, "c1.yaml does not exist (paths are relative to the fixture's directory); this fixture never opens it (the legacy path"},
		{diag.Error, 17, "c2.yaml does not exist (paths are relative to the fixture's directory); the fixture opens it"},
	} {
		if !hasDiag(got, w.sev, w.line, 0, w.text) {
			t.Errorf("want %s at line %d: %q; got %v", w.sev, w.line, w.text, got)
		}
	}
}

// The corpus fixtures lint without an unknown state or intent: upstream
// passes all of them.
func TestLintCorpus(t *testing.T) {
	apps, _ := filepath.Glob(filepath.Join(corpusDir, "*", "app.yaml"))
	more, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*", "app.yaml"))
	apps = append(apps, more...)
	if len(apps) == 0 {
		t.Skip("no corpus")
	}
	for _, app := range apps {
		if !HasFlows(app) {
			continue
		}
		st, ds := storylint.Load(app, story.Options{})
		if diag.HasErrors(ds) {
			continue
		}
		fds, _ := LintStorySources(app, st)
		for _, d := range fds {
			if d.Severity == diag.Error || d.Rule == ruleUnknownState.ID || d.Rule == ruleUnknownIntent.ID {
				t.Errorf("%s", d)
			} else if testing.Verbose() {
				t.Logf("%s", d)
			}
		}
	}
	_ = os.Getenv
}

// LintStorySources hands back each fixture file's bytes under the path
// its findings name, so a caller reading ignore comments needs no second
// read; a file that holds no flow document is among them too.
func TestLintStorySourcesKeepsWhatItRead(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"app.yaml":         "app: {id: src}\nroot: s\nintents:\n  go: {}\nstates:\n  s:\n    on:\n      go: [{target: s}]\n",
		"flows/a.yaml":     "test_kind: flow\ninitial_state: s\nturns:\n  - intent: {name: go}\n    bogus: 1\n",
		"flows/other.yaml": "test_kind: cassette\n",
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	app := filepath.Join(dir, "app.yaml")
	st, ds := storylint.Load(app, story.Options{})
	if diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	got, sources := LintStorySources(app, st)
	if len(got) != 1 || got[0].Rule != ruleUnknownKey.ID {
		t.Fatalf("want one unknown-key finding, got %v", got)
	}
	if b, ok := sources[got[0].File]; !ok || string(b) != files["flows/a.yaml"] {
		t.Fatalf("sources[%s] = %q, %v: want the fixture's bytes", got[0].File, b, ok)
	}
	if b := sources[filepath.Join(dir, "flows", "other.yaml")]; string(b) != files["flows/other.yaml"] {
		t.Fatalf("sources of other.yaml = %q", b)
	}
	if len(sources) != 2 {
		t.Fatalf("sources has %d files, want 2", len(sources))
	}
}

// DiscoverUnder's default finds what filepath.Glob(defaultGlob(app)) lists
// that is not a directory: hidden names, never a directory named like a
// fixture, nothing for a story without flows/ or whose flows is a file,
// and Glob's own meaning for a story directory whose name holds
// metacharacters (m[1] matches m1).
func TestDiscoverDefaultGlob(t *testing.T) {
	root := t.TempDir()
	write := func(p string) {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("test_kind: flow\nturns: []\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"s/app.yaml", "s/flows/b.yaml", "s/flows/a.yaml", "s/flows/.h.yaml", "s/flows/c.yml", "s/flows/d.yaml/x",
		"none/app.yaml", "file/app.yaml", "file/flows", "m[1]/app.yaml", "m[1]/flows/a.yaml", "m1/flows/z.yaml"} {
		write(p)
	}
	for _, story := range []string{"s", "none", "file", "m[1]"} {
		app := filepath.Join(root, story, "app.yaml")
		files, _, err := DiscoverUnder("", nil, []string{app}, "", false, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range files {
			got = append(got, filepath.Base(f.Path))
		}
		// m[1] is a directory name, not a pattern: its own flows/ (upstream's
		// Glob reads m1/flows instead; docs/compat/flowtest.md)
		if want := map[string]string{"s": "[.h.yaml a.yaml b.yaml]", "m[1]": "[a.yaml]"}[story]; fmt.Sprint(got) != cmp.Or(want, "[]") {
			t.Errorf("%s: found %v, want %s", story, got, cmp.Or(want, "[]"))
		}
	}
}

// An unknown initial_state under a known state: the fixture answers
// intents from that ancestor, as upstream, which the warning says.
func TestLintUnknownStartUnderKnown(t *testing.T) {
	st, _ := storylint.Load(rigApp, story.Options{})
	fxs, _ := parse("flows/l.yaml", []byte("test_kind: flow\ninitial_state: a.zz\nturns: []\n---\ntest_kind: flow\ninitial_state: zz\nturns: [{intent: go}]\n"+
		"---\ntest_kind: flow\ninitial_state: zz\nturns: [{advance_clock: 1s, expect_state: zz}]\n"))
	got := lint(st, fxs)
	if !hasDiag(got, diag.Warning, 2, 16, `takes the intents of "a" (and of its ancestors), as the existing engine does`) || !hasDiag(got, diag.Warning, 6, 16, "every intent it fires would be rejected") {
		t.Fatalf("%v", got)
	}
	// a fixture that only advances the clock is rejected nothing (upstream passes it)
	if !hasDiag(got, diag.Warning, 10, 16, "it fires no intent: its turns only advance the clock, resting there") || hasDiag(got, diag.Warning, 10, 16, "rejected") {
		t.Fatalf("%v", got)
	}
}

// TestLintSuggestionsBounded: every unknown expect_state gets its
// warning, the first maxSuggestions of one lint their did-you-mean (each
// compares the name with every state: 5,000 such turns against 15,000
// states took 19 s in validate).
func TestLintSuggestionsBounded(t *testing.T) {
	st := storyload.Load(t, rigApp, story.Options{})
	src := "test_kind: flow\ninitial_state: a\nturns:\n"
	const turns = 300
	for range turns {
		src += "  - intent: { name: go }\n    expect_state: donee\n"
	}
	fxs, pds := parse("flows/l.yaml", []byte(src))
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	var unknown, suggested int
	for _, d := range lint(st, fxs) {
		if d.Rule == ruleUnknownState.ID {
			unknown++
			if strings.Contains(d.Message, "did you mean") {
				suggested++
			}
		}
	}
	if unknown != turns || suggested != maxSuggestions {
		t.Errorf("%d unknown-state warnings, %d with a suggestion; want %d and %d", unknown, suggested, turns, maxSuggestions)
	}
}

// TestLintChildIntentSpellings: a turn naming an imported child's intent
// as the child declares it (`quit`, which the fold renames kid__quit) is
// routed by both engines (the state's intent aliases), so it is no
// unknown intent; a name nothing declares still is.
func TestLintChildIntentSpellings(t *testing.T) {
	st := storyload.Load(t, "../engine/testdata/conformance/import-local-intent/app.yaml", story.Options{})
	fxs, pds := parse("flows/l.yaml", []byte(`test_kind: flow
use_orchestrator: true
turns:
  - intent: { name: enter }
  - intent: { name: quit }
  - intent: { name: kid__quit }
  - intent: { name: nosuch }
`))
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	got := lint(st, fxs)
	// kid__quit at home (line 6): the fixture starts at the root with no
	// initial_state, so quit certainly left the child (probed:
	// INTENT_NOT_ALLOWED_IN_STATE upstream, /tmp/lintgaps41/ili)
	if len(got) != 2 || got[0].Line != 6 || got[0].Rule != ruleRejected.ID || got[1].Line != 7 || got[1].Rule != ruleRejected.ID {
		t.Fatalf("want kid__quit rejected at home (line 6), and nosuch flow-rejected alone (line 7): %v", got)
	}
}

// A parallel initial_state naming no leaf of a region starts without one
// there, as upstream (conformance par-start-regions-named): a warning
// names the region; a path naming every region gets none.
func TestLintParallelStartNamesEveryRegion(t *testing.T) {
	st, _ := storylint.Load("../engine/testdata/conformance/par-start-regions-named", story.Options{})
	fxs, _ := parse("flows/p.yaml", []byte("test_kind: flow\ninitial_state: \"p#p.a.a1|p.b.b1\"\nturns: []\n---\ntest_kind: flow\ninitial_state: \"p#p.a.a1|p.b.b1|p.c.c2\"\nturns: []\n"))
	got := lint(st, fxs)
	if !hasDiag(got, diag.Warning, 2, 16, `names no leaf of region p.c: the fixture starts without one there`) || len(got) != 1 {
		t.Fatalf("%v", got)
	}
}

// A parallel initial_state naming two leaves of one region, or one leaf
// twice, keeps them all until an intent is taken, as upstream (conformance
// par-start-two-leaves): a warning names the region.
func TestLintParallelStartTwoLeaves(t *testing.T) {
	st, _ := storylint.Load("../engine/testdata/conformance/par-start-two-leaves", story.Options{})
	fxs, _ := parse("flows/p.yaml", []byte("test_kind: flow\ninitial_state: \"p#p.ra.a2|p.ra.a1|p.rb.b1\"\nturns: []\n---\ntest_kind: flow\ninitial_state: \"p#p.rb.b2|p.rb.b2|p.ra.a1\"\nturns: []\n---\ntest_kind: flow\ninitial_state: \"p#p.ra.a1|p.rb.b2\"\nturns: []\n"))
	got := lint(st, fxs)
	if !hasDiag(got, diag.Warning, 2, 16, `names more than one leaf of region p.ra: both engines keep every entry`) ||
		!hasDiag(got, diag.Warning, 6, 16, `names more than one leaf of region p.rb:`) || len(got) != 2 {
		t.Fatalf("%v", got)
	}
}

// An expect_error code no rejection carries (the llm-guide's §10 names, a
// typo) is a warning naming what the turn sees instead; the four codes a
// rejection carries are not warned so, only where the turn is accepted.
func TestLintErrorCode(t *testing.T) {
	st := storyload.Load(t, rigApp, story.Options{})
	fxs, pds := parse("flows/l.yaml", []byte(`test_kind: flow
initial_state: a
turns:
  - intent: { name: go }
    expect_error: { code: SLOT_MISSING_REQUIRED }
  - intent: { name: go }
    expect_error: { code: GUARD_FAILD }
  - intent: { name: go }
    expect_error: { code: MISSING_SLOTS }
  - intent: { name: go }
    expect_error: { code: INVALID_SLOT_VALUE }
  - intent: { name: go }
    expect_error: { code: GUARD_FAILED }
  - intent: { name: go }
    expect_error: { code: INTENT_NOT_ALLOWED_IN_STATE }
`))
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	got := lint(st, fxs)
	// (go is taken at a, unguarded: turns[2] is accepted there, so it
	// fails whatever code it names (conformance lint-expect-accepted), and
	// after it the rest is not judged; the legacy path keeps the fixture
	// across the two before it)
	if len(got) != 3 || !hasDiag(got, diag.Warning, 5, 19, "code SLOT_MISSING_REQUIRED is never reported, so the turn always fails: a missing required slot is MISSING_SLOTS") ||
		!hasDiag(got, diag.Warning, 7, 19, "code GUARD_FAILD is never reported, so the turn always fails: a rejected turn carries one of INTENT_NOT_ALLOWED_IN_STATE, MISSING_SLOTS, INVALID_SLOT_VALUE, GUARD_FAILED") ||
		!hasDiag(got, diag.Warning, 9, 19, `code MISSING_SLOTS, but intent "go", fired at "a" (where the fixture starts (initial_state)), takes an unguarded first arm of "a": neither engine rejects it`) {
		t.Fatalf("%v", got)
	}
	for _, d := range got {
		if d.Rule != ruleErrorCode.ID {
			t.Errorf("rule %s, want %s", d.Rule, ruleErrorCode.ID)
		}
	}
}

// expect_no_errors: true beside an expect_error turn always fails (the
// expected rejection counts): one warning at expect_no_errors, none for
// expect_no_errors: false.
func TestLintNoErrorsWithRejection(t *testing.T) {
	st := storyload.Load(t, rigApp, story.Options{})
	fxs, pds := parse("flows/l.yaml", []byte(`test_kind: flow
initial_state: a
expect_no_errors: true
turns:
  - intent: { name: go }
  - intent: { name: go }
    expect_error: { code: GUARD_FAILED }
  - intent: { name: go }
    expect_error: { code: GUARD_FAILED }
---
test_kind: flow
initial_state: a
expect_no_errors: false
turns:
  - intent: { name: go }
    expect_error: { code: GUARD_FAILED }
`))
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	got := lint(st, fxs)
	// (the first fixture's turns[1] fires go at b, which does not take
	// it, and the second fixture's go is accepted at a: conformance
	// lint-expect-accepted, not this rule)
	if len(got) != 3 || !hasDiag(got, diag.Warning, 7, 19, `turns[1].expect_error: code GUARD_FAILED, but intent "go" is not taken at "b"`) || !hasDiag(got, diag.Warning, 3, 1, "turns[1] expects a rejection (expect_error), which counts as an error: the fixture always fails") ||
		!hasDiag(got, diag.Warning, 16, 19, `turns[0].expect_error: code GUARD_FAILED, but intent "go", fired at "a"`) {
		t.Fatalf("%v", got)
	}
}

// A turn's intent written as a bare name runs here but is refused by the
// existing engine: validate's error names the mapping to write.
func TestLintBareIntent(t *testing.T) {
	st := storyload.Load(t, rigApp, story.Options{})
	fxs, pds := parse("flows/l.yaml", []byte("test_kind: flow\ninitial_state: a\nturns:\n  - intent: go\n  - intent: {name: back}\n"))
	if diag.HasErrors(pds) || len(fxs) != 1 || fxs[0].Turns[0].Intent.Name != "go" {
		t.Fatalf("the shorthand still parses and runs: %v", pds)
	}
	got := lint(st, fxs)
	if len(got) != 1 || !hasDiag(got, diag.Error, 4, 13, "turns[0].intent: a bare name; the existing engine refuses this fixture file (string was used where mapping is expected); write intent: {name: go}") {
		t.Fatalf("%v", got)
	}
}

// expect_jobs / expect_inbox on a legacy-path fixture are never checked
// (conformance legacy-jobs-inbox-unchecked): validate says so.
func TestLintJobKeysOnLegacyPath(t *testing.T) {
	st := storyload.Load(t, rigApp, story.Options{})
	fxs, pds := parse("flows/l.yaml", []byte(`test_kind: flow
initial_state: a
use_orchestrator: false
turns:
  - intent: { name: go }
    expect_jobs: [{ namespace: host.run, status: done }]
    expect_inbox: { unread: 1 }
`))
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	n := 0
	for _, d := range lint(st, fxs) {
		if d.Rule == ruleNotChecked.ID && (d.Line == 6 || d.Line == 7) {
			n++
		}
	}
	if n != 2 {
		t.Errorf("want flow-not-checked at lines 6 and 7: %v", lint(st, fxs))
	}
}

// A declared state whose name holds "#" is read as a parallel state's
// leaves, so no turn rests in it: the warning names that cause, never
// "did you mean" the very name the fixture wrote.
func TestLintHashStateNameNoSelfSuggestion(t *testing.T) {
	st := storyload.Load(t, "../story/testdata/broken/state-name/app.yaml", story.Options{})
	fxs, pds := parse("flows/h.yaml", []byte("test_kind: flow\ninitial_state: draft\nturns:\n  - intent: { name: go }\n    expect_state: \"review#2\"\n"))
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	got := lint(st, fxs)
	if !hasDiag(got, diag.Warning, 5, 19, `a state of that name is declared, but the engine reads its "#"`) || len(got) != 1 || strings.Contains(got[0].Message, "did you mean") {
		t.Fatalf("%v", got)
	}
}
