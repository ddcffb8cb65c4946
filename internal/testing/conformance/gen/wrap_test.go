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

// A story whose root's entry runs an on_enter keeps a root start inside
// the wrap: entering the
// import would run the on_enter that the fixture's own start skips, and
// the fixture that passes unwrapped would fail wrapped.
func TestWrapRootEntryStartsInside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d := filepath.Join(dir, "000")
	app := `app: { id: enters, version: 0.1.0 }
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
	fx := `test_kind: flow
initial_state: r1
turns:
  - intent: { name: go }
    expect_state: r2
    expect_world: { s: "" }
`
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
	if !strings.Contains(string(b), "initial_state: kid.r1") || strings.Contains(string(b), "enter") {
		t.Errorf("the root start is not kept inside:\n%s", b)
	}
	rs := flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(t.Context(), mustDiscover(t, d))
	if len(rs) != 1 || rs[0].Fatal != nil || rs[0].Flow == nil || !rs[0].Flow.Passed {
		t.Errorf("the wrapped fixture fails: %+v", rs)
	}
}
