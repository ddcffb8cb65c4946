package story

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"kitsoki/internal/testing/opened"
)

// FixtureWorldKeys reads initial_world: and world_override: keys from
// flows/*.yaml and <manifest>-flows/*.yaml, and nothing a symlink leads to
// outside the project root.
func TestFixtureWorldKeys(t *testing.T) {
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(proj, ".kitsoki"), filepath.Join(proj, "flows"), filepath.Join(proj, "app-flows"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"proj/app.yaml":          "app: {id: x}\nroot: a\nstates: {a: {}}\n",
		"proj/flows/a.yaml":      "test_kind: flow\ninitial_world: {seeded: 1, other: 2}\nturns:\n  - world_override: {over: 3}\n  - intent: {name: go}\n",
		"proj/app-flows/b.yaml":  "initial_world: {beside: 1}\n",
		"proj/flows/broken.yaml": "initial_world: [not, a, map\n",
		"outside/secret.yaml":    "initial_world: {leaked: 1}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(base, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "secret.yaml"), filepath.Join(proj, "flows", "link.yaml")); err != nil {
		t.Fatal(err)
	}
	st, ds := Load(filepath.Join(proj, "app.yaml"), Options{})
	if st == nil {
		t.Fatalf("load: %v", ds)
	}
	got := st.FixtureWorldKeys()
	if want := []string{"beside", "other", "over", "seeded"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A flows/ directory (or <manifest>-flows/) that is a symlink out of the
// project root is never listed: listing a link to / or to a huge tree took
// as long as the tree is wide, for matches that were then dropped.
func TestFixtureWorldKeysNoListingThroughALinkOut(t *testing.T) {
	base := t.TempDir()
	proj, outside := filepath.Join(base, "proj"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(proj, ".kitsoki"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(proj, "app.yaml"), []byte("app: {id: x}\nroot: a\nstates: {a: {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.yaml"), []byte("initial_world: {leaked: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{"flows", "app-flows"} {
		if err := os.Symlink(outside, filepath.Join(proj, link)); err != nil {
			t.Fatal(err)
		}
	}
	st, ds := Load(filepath.Join(proj, "app.yaml"), Options{})
	if st == nil {
		t.Fatalf("load: %v", ds)
	}
	var got []string
	if listed := opened.During(t, []string{outside}, func() { got = st.FixtureWorldKeys() }); len(listed) > 0 {
		t.Errorf("listed %s through a link out of the project", listed)
	}
	if len(got) > 0 {
		t.Errorf("keys %q read through a link out of the project", got)
	}
}
