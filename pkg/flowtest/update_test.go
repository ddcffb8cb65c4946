package flowtest

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// updateFlow writes fixture as flows/f.yaml beside a copy of the rig
// story, runs it for --update and plans the update.
func updateFlow(t *testing.T, fixture string) (*Runner, *Update, string) {
	t.Helper()
	dir := storytest.TempCopy(t, filepath.Dir(rigApp))
	path := filepath.Join(dir, "flows", "f.yaml")
	storytest.WriteFile(t, path, fixture)
	files, _, err := DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, "", false, nil)
	if err != nil || len(files) != 1 {
		t.Fatalf("discover: %v (%d files)", err, len(files))
	}
	r := NewRunner(Options{Jobs: 1, Observe: true})
	ctx := context.Background()
	return r, r.Update(ctx, files, r.Run(ctx, files)), path
}

// wantUpdate checks the update rewrote fixture into want, and that the
// file on disk is want once written.
func wantUpdate(t *testing.T, fixture, want string, changes int) {
	t.Helper()
	r, u, path := updateFlow(t, fixture)
	for _, x := range u.Refused {
		t.Errorf("refused %s at %s: %s", x.Fixture, x.Pos, x.Reason)
	}
	if len(u.Files) != 1 {
		t.Fatalf("%d files updated, want 1", len(u.Files))
	}
	if got := string(u.Files[0].New); got != want {
		t.Fatalf("updated to\n%s\nwant\n%s", got, want)
	}
	if u.Changes != changes || u.Fixtures != 1 {
		t.Errorf("%d fixtures, %d changes; want 1, %d", u.Fixtures, u.Changes, changes)
	}
	if err := r.WriteUpdate(u); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != want {
		t.Errorf("the file holds\n%s", b)
	}
}

// wantRefused checks the update changed nothing and refused the fixture
// for a reason containing why.
func wantRefused(t *testing.T, fixture, why string) {
	t.Helper()
	_, u, _ := updateFlow(t, fixture)
	if len(u.Files) != 0 || u.Changes != 0 {
		t.Errorf("updated %d files (%d changes); want none", len(u.Files), u.Changes)
	}
	if len(u.Refused) != 1 || !strings.Contains(u.Refused[0].Reason, why) {
		t.Fatalf("refusals %+v; want one about %q", u.Refused, why)
	}
	if u.Refused[0].Pos.Line == 0 {
		t.Errorf("refusal without a line: %+v", u.Refused[0])
	}
}

func TestUpdateHostCalls(t *testing.T) {
	head := "test_kind: flow\ninitial_state: a\n" + stubs + "turns:\n  - intent: { name: go }\n"
	wantUpdate(t, head+`    expect_host_calls:
      - handler: host.run   # the on_enter run
        args: { cmd: "echo 2", call: first }
        times: 3
`, head+`    expect_host_calls:
      - handler: host.run   # the on_enter run
        args: { cmd: "echo 1", call: first }
        times: 1
`, 2)
	// The args match; only the count is off.
	wantUpdate(t, head+"    expect_host_calls:\n      - handler: host.run\n        times: 2\n",
		head+"    expect_host_calls:\n      - handler: host.run\n        times: 1\n", 1)
	// Never called: times goes to 0; without times, refused.
	wantUpdate(t, head+"    expect_host_calls:\n      - handler: host.agent.decide\n        times: 1\n",
		head+"    expect_host_calls:\n      - handler: host.agent.decide\n        times: 0\n", 1)
	wantRefused(t, head+"    expect_host_calls:\n      - handler: host.agent.decide\n", "never called; --update never removes an assertion")
}

func TestUpdateExpectations(t *testing.T) {
	head := "test_kind: flow\ninitial_state: a\n" + stubs + "turns:\n  - intent: { name: go }\n"
	wantUpdate(t, head+`    expect_state: c     # landed
    expect_world:
      out: 'bye'
      obj:
        a: 1            # kept
        b: { c: [1, 3] }
      n: 0
`, head+`    expect_state: b     # landed
    expect_world:
      out: 'hi'
      obj:
        a: 1            # kept
        b: { c: [1, 2] }
      n: 0
`, 3)
}

func TestUpdateExpectError(t *testing.T) {
	wantUpdate(t, `test_kind: flow
initial_state: a
turns:
  - intent: { name: locked }
    expect_error:
      code: MISSING_SLOTS   # was
`, `test_kind: flow
initial_state: a
turns:
  - intent: { name: locked }
    expect_error:
      code: GUARD_FAILED   # was
`, 1)
	wantRefused(t, "test_kind: flow\ninitial_state: a\nturns:\n  - intent: { name: toggle }\n    expect_error: { code: GUARD_FAILED }\n",
		`expected error "GUARD_FAILED" but got none`)
}

func TestUpdateRefusals(t *testing.T) {
	// A host call nothing answers: a missing stub, not an expectation.
	wantRefused(t, "test_kind: flow\nuse_orchestrator: true\ninitial_state: a\nturns:\n  - intent: { name: go }\n    expect_state: zzz\n",
		"add a stub")
	// A rejection no expect_error names.
	wantRefused(t, "test_kind: flow\ninitial_state: a\nturns:\n  - intent: { name: locked }\n    expect_state: b\n",
		"a reason --update does not rewrite")
	// An expectation --update does not rewrite.
	wantRefused(t, "test_kind: flow\ninitial_state: a\n"+stubs+"turns:\n  - intent: { name: go }\n    expect_state: zzz\n    expect_events:\n      - kind: nope\n",
		"a reason --update does not rewrite: expect_events")
	// An anchor.
	wantRefused(t, "test_kind: flow\ninitial_state: &s a\n"+stubs+"turns:\n  - intent: { name: go }\n    expect_state: *s\n",
		"anchor")
	// A fixture that cannot run.
	wantRefused(t, "test_kind: flow\ninitial_state: a\nrecording: missing.yaml\nturns:\n  - input: hello\n    expect_state: b\n",
		"could not run")
}

// A refused value read through an alias is placed at the alias, the
// turn's own line, not at the anchor another turn holds.
func TestUpdateAnchorRefusalAtAlias(t *testing.T) {
	fixture := "test_kind: flow\ninitial_state: a\n" + stubs + "turns:\n  - intent: { name: go }\n    expect_state: &s b\n  - intent: { name: back }\n    expect_state: *s\n"
	_, u, _ := updateFlow(t, fixture)
	if len(u.Refused) != 1 || !strings.Contains(u.Refused[0].Reason, "turn 2 expect_state: the value comes from a YAML anchor or alias") {
		t.Fatalf("refusals %+v; want one about turn 2's alias", u.Refused)
	}
	line := strings.Count(fixture[:strings.Index(fixture, "*s")], "\n") + 1
	if p := u.Refused[0].Pos; p.Line != line || p.Col != 19 {
		t.Errorf("refused at %s; want line %d column 19, where the alias is", p, line)
	}
}

func TestUpdateViewPatterns(t *testing.T) {
	cases := []struct{ pattern, view, want, err string }{
		{"You hav won", "...You have won!", `You have won`, ""},
		{"Completion:         complete", "Completion:             complete-with-pending", `Completion:             complete`, ""},
		{"Score: [0-9]+ of 10", "Score:  7 of  10", "", "no longer matches"},
		{"Score: \\d+ of 10", "Score:  7 of  10", `Score:  \d+ of  10`, ""},
		{"(a|b) c", "zzz", "", "no longer matches"},
		{"totally different", "nothing alike here at all", "", "holds nothing close"},
		{"a.b", "a-c", "", "no longer matches"},
		{"cost $5", "cost $6", "", "no longer matches"},
		{"naïve cafe", "the naïve café", "naïve café", ""},
	}
	for _, c := range cases {
		got, err := repairView(c.pattern, c.view)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q in %q: got %q, %v; want an error about %q", c.pattern, c.view, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q in %q: got %q, %v; want %q", c.pattern, c.view, got, err, c.want)
		}
	}
}

// updateGolden holds a story, its fixtures as --update writes them from
// before/ (where their expectations drifted), and the existing engine's
// report on the written fixtures (upstream.json, recorded once with its
// `test flows --json`): they pass there too.
const updateGolden = "testdata/update"

func TestUpdateGolden(t *testing.T) {
	dir := storytest.TempCopy(t, updateGolden)
	for _, name := range []string{"drift.yaml", "error.yaml"} {
		b, err := os.ReadFile(filepath.Join(updateGolden, "before", name))
		if err != nil {
			t.Fatal(err)
		}
		storytest.WriteFile(t, filepath.Join(dir, "flows", name), string(b))
	}
	files, _, err := DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, "", false, nil)
	if err != nil || len(files) != 2 {
		t.Fatalf("discover: %v (%d files)", err, len(files))
	}
	r := NewRunner(Options{Jobs: 1, Observe: true})
	ctx := context.Background()
	u := r.Update(ctx, files, r.Run(ctx, files))
	if len(u.Refused) > 0 || u.Fixtures != 2 || u.Changes != 7 {
		t.Fatalf("%d fixtures, %d changes, refused %+v; want 2, 7, none", u.Fixtures, u.Changes, u.Refused)
	}
	if err := r.WriteUpdate(u); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"drift.yaml", "error.yaml"} {
		got, _ := os.ReadFile(filepath.Join(dir, "flows", name))
		want, _ := os.ReadFile(filepath.Join(updateGolden, "flows", name))
		if string(got) != string(want) {
			t.Errorf("%s: --update wrote\n%s\nwant (the golden)\n%s", name, got, want)
		}
	}
	// The written fixtures pass here, as they do on the existing engine,
	// turn by turn in the same states.
	upPath := filepath.Join(updateGolden, "upstream.json")
	upData, err := os.ReadFile(upPath)
	if err != nil {
		t.Fatal(err)
	}
	up, err := ParseReport(upPath, upData)
	if err != nil {
		t.Fatal(err)
	}
	files, _, _ = DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, "", false, nil)
	ours := NewReport(NewRunner(Options{Jobs: 1}).Run(ctx, files))
	if len(ours.Results) != len(up.Results) {
		t.Fatalf("%d results, upstream %d", len(ours.Results), len(up.Results))
	}
	for i, w := range up.Results {
		g := ours.Results[i]
		if !w.Passed || !g.Passed || filepath.Base(g.File) != filepath.Base(w.File) || len(g.Turns) != len(w.Turns) {
			t.Errorf("%s: passed %v (upstream %v)", w.File, g.Passed, w.Passed)
			continue
		}
		for k := range w.Turns {
			if g.Turns[k].NewState != w.Turns[k].NewState {
				t.Errorf("%s turn %d: %q, upstream %q", w.File, k+1, g.Turns[k].NewState, w.Turns[k].NewState)
			}
		}
	}
}

// FuzzRepairView: a pattern repairView returns compiles and matches the
// view it was made for.
func FuzzRepairView(f *testing.F) {
	f.Add("You hav won", "...You have won!")
	f.Add("Completion:         complete", "Completion:             complete-with-pending")
	f.Add(`Score: \d+ of 10`, "Score:  7 of  10")
	f.Add("a +b", "a  b")
	f.Add("(x y)", "x   y")
	f.Fuzz(func(t *testing.T, pattern, view string) {
		if len(pattern) > 200 || len(view) > 2000 {
			return
		}
		got, err := repairView(pattern, view)
		if err != nil {
			return
		}
		re, err := regexp.Compile(got)
		if err != nil {
			t.Fatalf("%q in %q: %q does not compile: %v", pattern, view, got, err)
		}
		if !re.MatchString(view) {
			t.Fatalf("%q in %q: %q does not match the view", pattern, view, got)
		}
	})
}

// The fixture's directory swapped for a link out of the project after
// the write's check (a process beside the run) holding a copy of the
// fixture: the update reads and writes through the project root, so it
// refuses the file, and the copy outside is never written.
func TestUpdateDirectorySwappedForALinkOut(t *testing.T) {
	r, u, path := updateFlow(t, "test_kind: flow\ninitial_state: a\n"+stubs+"turns:\n  - intent: { name: go }\n    expect_state: c\n")
	if len(u.Files) != 1 {
		t.Fatalf("%d files to update, want 1 (refused: %+v)", len(u.Files), u.Refused)
	}
	old := string(u.Files[0].Old)
	outside := t.TempDir()
	storytest.WriteFile(t, filepath.Join(outside, "f.yaml"), old)
	flows := filepath.Dir(path)
	r.writing = func(string) {
		if err := os.Rename(flows, flows+".moved"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, flows); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	err := r.WriteUpdate(u)
	if err == nil || !strings.Contains(err.Error(), "leads out of the project root") {
		t.Errorf("WriteUpdate: %v; want the file refused as leading out", err)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "f.yaml")); string(b) != old {
		t.Errorf("the copy outside the project was written:\n%s", b)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 1 {
		t.Errorf("the directory outside holds %d entries, want the copy alone", len(ents))
	}
}

// A panic while planning a file's update refuses each of its failing
// fixtures in panicked's wording, changes nothing in it, and writes the
// stack once for the file, not once per fixture. (No input is known to
// panic: a fixture with a nil turn, which parse never makes, stands in.)
func TestUpdateSurvivesAPanic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.yaml")
	storytest.WriteFile(t, path, "test_kind: flow\nturns: []\n---\ntest_kind: flow\nturns: []\n")
	failing := &Result{Flow: &FlowResult{}}
	var fxs []*Fixture
	byName := map[string]*Result{}
	for doc := 1; doc <= 2; doc++ {
		fx := &Fixture{File: path, Doc: doc, Docs: 2, Turns: []*Turn{nil}}
		fxs = append(fxs, fx)
		byName[fx.Name()] = failing
	}
	var stderr strings.Builder
	r := NewRunner(Options{Stderr: &stderr})
	u := &Update{}
	u.guarded(context.Background(), r, &File{Path: path, Fixtures: fxs}, byName)
	if len(u.Files) != 0 || len(u.Refused) != 2 {
		t.Fatalf("files %d, refused %+v", len(u.Files), u.Refused)
	}
	want := "updating " + path + ": the fixture rewriter panicked: runtime error: invalid memory address or nil pointer dereference (a kitsoki bug: please report it, with the stack kitsoki wrote to stderr); nothing was changed in it"
	for _, x := range u.Refused {
		if x.Reason != want {
			t.Errorf("%s: %s\nwant %s", x.Fixture, x.Reason, want)
		}
	}
	if n := strings.Count(stderr.String(), "[running]"); n != 1 {
		t.Fatalf("%d stacks on stderr, want 1:\n%s", n, stderr.String())
	}
}
