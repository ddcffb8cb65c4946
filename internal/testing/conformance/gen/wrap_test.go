package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// A story whose fixtures pass (testdata/wrap: a six-document file with a
// world key, intents, dotted and slashed targets, a compound start, an
// @exit, a root start with a seeded world, expected events and an
// expect_error's allowed intents, a phase template's {{ tpl.id }}-led
// dotted target, a legacy document with no start, which upstream starts
// at "", one with no turn that counts its events; an input: turn answered
// by a recording) still passes
// wrapped under one and two parents: every name the fixtures use is
// renamed as the fold renames it, and the dotted targets gain the prefix.
func TestWrapKeepsFixturesPassing(t *testing.T) {
	t.Parallel()
	for _, levels := range []int{1, 2} {
		dir := t.TempDir()
		d := filepath.Join(dir, "000")
		if err := os.CopyFS(d, os.DirFS("testdata/wrap")); err != nil {
			t.Fatal(err)
		}
		if err := wrapTree(dir, levels); err != nil {
			t.Fatal(err)
		}
		inner := filepath.Join(append([]string{d}, repeatSlice(wrapAlias, levels)...)...)
		pre := strings.Repeat("kid.", levels)
		for file, want := range map[string][]string{
			filepath.Join(inner, "app.yaml"): {"target: " + pre + "room.a", "target: " + strings.Repeat("kid/", levels) + "room/b", pre + "{{ tpl.id }}_wing.w2"},
			filepath.Join(d, "flows", "f.yaml"): {
				"initial_state: home", "name: " + strings.Repeat("kid__", levels) + "go", strings.Repeat("kid__", levels) + "n: 5",
				"initial_state: " + pre + "room.a", "expect_state: " + pre + "room.b", "last_error:", "---",
				"initial_state: " + pre + "start", "effect: {intent: " + strings.Repeat("kid__", levels) + "go}", "allowed_contains: [" + strings.Repeat("kid__", levels) + "jump]",
				"initial_state: " + pre + "east_hall",
			},
			filepath.Join(d, "flows", "rec", "r.yaml"): {"state: " + pre + "room.a", "name: " + strings.Repeat("kid__", levels) + "jump"},
		} {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range want {
				if !strings.Contains(string(b), w) {
					t.Errorf("levels %d: %s lacks %q:\n%s", levels, file, w, b)
				}
			}
		}
		rs := flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(t.Context(), mustDiscover(t, d))
		if len(rs) != 7 {
			t.Fatalf("levels %d: %d fixtures ran, want 7", levels, len(rs))
		}
		for _, r := range rs {
			if r.Fatal != nil || r.Flow == nil || !r.Flow.Passed {
				t.Errorf("levels %d: %s fails wrapped: fatal %v, failures %v", levels, r.Name, r.Fatal, r.Failures)
			}
		}
	}
}

// A parallel configuration is renamed path by path; an @exit state is the
// innermost parent's done; a name the story does not declare is kept.
func TestWrapStateNames(t *testing.T) {
	t.Parallel()
	n := &wrapNames{tops: map[string]bool{"p": true}, levels: 2}
	for in, want := range map[string]string{
		"p#p.ra.a1|p.rb.b1": "kid.kid.p#kid.kid.p.ra.a1|kid.kid.p.rb.b1",
		"__exit__out":       "kid.done",
		"elsewhere":         "elsewhere",
	} {
		if got := n.state(in); got != want {
			t.Errorf("state(%q) = %q, want %q", in, got, want)
		}
	}
}

// A story whose root's entry runs an on_enter keeps a root start named
// as written inside the wrap: entering the import would run the on_enter
// that the fixture's own start skips, and the fixture that passes
// unwrapped would fail wrapped. A start left unset on the orchestrator
// path lands in a compound root's initial leaf, which a start inside
// would not: it keeps the enter turns. Upstream passes both unwrapped and
// wrapped.
func TestWrapRootEntryStartsInside(t *testing.T) {
	t.Parallel()
	leaf := `app: { id: enters, version: 0.1.0 }
world:
  s: { type: string, default: "" }
intents:
  go: { description: go }
root: r1
states:
  r1:
    view: "s={{ world.s }}"
    on_enter: [ { set: { s: entered } } ]
    on:
      go: [ { target: r2 } ]
  r2: { view: r2 }
`
	compound := `app: { id: enters, version: 0.1.0 }
world:
  s: { type: string, default: "" }
intents:
  go: { description: go }
root: r
states:
  r:
    type: compound
    initial: r1
    states:
      r1:
        view: "s={{ world.s }}"
        on_enter: [ { set: { s: entered } } ]
        on:
          go: [ { target: r.r2 } ]
      r2: { view: r2 }
`
	for _, c := range []struct{ app, fx, want, not string }{
		{leaf, "test_kind: flow\ninitial_state: r1\nturns:\n  - intent: { name: go }\n    expect_state: r2\n    expect_world: { s: \"\" }\n",
			"initial_state: kid.r1", "enter"},
		{compound, "test_kind: flow\nuse_orchestrator: true\nturns:\n  - intent: { name: go }\n    expect_state: r.r2\n",
			"initial_state: home", "initial_state: kid"},
	} {
		got, passed := wrapOne(t, c.app, c.fx)
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) || !passed {
			t.Errorf("want %q, not %q, passing; got (passed %v):\n%s", c.want, c.not, passed, got)
		}
	}
}

// wrapOne wraps the story app with the one fixture file fx at one level,
// and returns the wrapped fixture and whether it passes.
func wrapOne(t *testing.T, app, fx string) (string, bool) {
	t.Helper()
	dir := t.TempDir()
	d := filepath.Join(dir, "000")
	for p, b := range map[string]string{"app.yaml": app, "flows/f.yaml": fx} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(d, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, p), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := wrapTree(dir, 1); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(d, "flows", "f.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rs := flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(t.Context(), mustDiscover(t, d))
	return string(b), len(rs) == 1 && rs[0].Fatal == nil && rs[0].Flow != nil && rs[0].Flow.Passed
}
