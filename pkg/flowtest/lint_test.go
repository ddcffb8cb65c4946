package flowtest

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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
`), nil)
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	got := (*LintCache)(nil).lint(st, fxs)
	for _, w := range []struct {
		line int
		rule *diag.Rule
	}{{2, ruleUnknownState}, {5, ruleUnusedStub}, {7, ruleUnknownIntent}, {8, ruleUnknownState}, {11, ruleNotChecked}, {13, ruleNotChecked}} {
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
	if len(got) != 6 {
		t.Errorf("want exactly 6 findings (nosuch under expect_error and host.run are fine): %v", got)
	}
}

// The findings point at the offending value (the path, the pattern).
func TestLintFilesAndRegex(t *testing.T) {
	st, _ := storylint.Load(rigApp, story.Options{})
	fxs, _ := parse("testdata/none/l.yaml", []byte("test_kind: flow\nrecording: nope.yaml\nturns:\n  - intent: go\n    expect_view_matches: \"(\"\n"), nil)
	got := (*LintCache)(nil).lint(st, fxs)
	if !hasDiag(got, diag.Error, 2, 12, "testdata/none/nope.yaml does not exist") || !hasDiag(got, diag.Warning, 5, 26, "the turn will always fail") {
		t.Fatalf("%v", got)
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
		if !(*LintCache)(nil).HasFlows(app) {
			continue
		}
		st, ds := storylint.Load(app, story.Options{})
		if diag.HasErrors(ds) {
			continue
		}
		fds, _ := (*LintCache)(nil).LintStorySources(app, st)
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
		"flows/a.yaml":     "test_kind: flow\nturns:\n  - intent: go\n    bogus: 1\n",
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
	got, sources := (&LintCache{}).LintStorySources(app, st)
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

// A LintCache shares what a fixture document reads as between the files
// holding the same text, never what depends on the file: each file's
// findings name that file, its relative paths resolve beside it, and a
// document at another place in its file keeps its own lines. Each story's
// findings through one shared cache, met in either order, equal its
// findings read afresh.
func TestLintCacheRebasesPerFile(t *testing.T) {
	const doc = "test_kind: flow\nhost_cassette: cass.yaml\nbogus: 1\nturns:\n  - intent: go\n    expect_state: nowhere\n    also_bogus: 2\n"
	const app = "app: {id: rb}\nroot: s\nintents:\n  go: {}\nstates:\n  s:\n    on:\n      go: [{target: s}]\n"
	stories := map[string]map[string]string{
		"s1": {"app.yaml": app, "flows/a.yaml": doc, "flows/cass.yaml": "kind: host_cassette\n"},
		"s2": {"app.yaml": app, "flows/a.yaml": doc},
		"s3": {"app.yaml": app, "flows/b.yaml": "test_kind: cassette\n---\n" + doc},
		"s4": {"app.yaml": app, "flows/c.yaml": doc + "---\n" + doc},
	}
	root := t.TempDir()
	var apps []string
	for _, name := range []string{"s1", "s2", "s3", "s4"} {
		for p, c := range stories[name] {
			full := filepath.Join(root, name, p)
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		apps = append(apps, filepath.Join(root, name, "app.yaml"))
	}
	loaded := map[string]*story.Story{}
	fresh := map[string][]diag.Diagnostic{}
	for _, a := range apps {
		st, ds := storylint.Load(a, story.Options{})
		if diag.HasErrors(ds) {
			t.Fatal(ds)
		}
		loaded[a] = st
		fresh[a], _ = (*LintCache)(nil).LintStorySources(a, st)
	}
	// The cases differ where they must: s1 finds its cassette, s2 does not.
	missing := func(ds []diag.Diagnostic) int {
		n := 0
		for _, d := range ds {
			if d.Rule == ruleMissingFile.ID {
				n++
			}
		}
		return n
	}
	if missing(fresh[apps[0]]) != 0 || missing(fresh[apps[1]]) != 1 {
		t.Fatalf("fresh: want no missing file in s1 and one in s2:\n%v\n%v", fresh[apps[0]], fresh[apps[1]])
	}
	backward := slices.Clone(apps)
	slices.Reverse(backward)
	for _, order := range [][]string{apps, backward} {
		c := &LintCache{}
		for _, a := range order {
			got, _ := c.LintStorySources(a, loaded[a])
			if !reflect.DeepEqual(got, fresh[a]) {
				t.Errorf("%s through a shared cache:\n got %v\nwant %v", a, got, fresh[a])
			}
			for _, d := range got {
				if !strings.HasPrefix(d.File, filepath.Dir(a)+string(filepath.Separator)) {
					t.Errorf("%s: finding names another story's file: %v", a, d)
				}
			}
		}
	}
}

// Discover's default finds what filepath.Glob(defaultGlob(app)) lists
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
		files, _, err := Discover([]string{app}, "", false, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range files {
			got = append(got, filepath.Base(f.Path))
		}
		if want := map[string]string{"s": "[.h.yaml a.yaml b.yaml]", "m[1]": "[z.yaml]"}[story]; fmt.Sprint(got) != cmp.Or(want, "[]") {
			t.Errorf("%s: found %v, want %s", story, got, cmp.Or(want, "[]"))
		}
	}
}
