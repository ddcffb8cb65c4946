package validate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// swapProject lays out a marked project whose app.yaml does not parse
// (so the load keeps none of its bytes) and holds an ignore marker naming
// no rule, and, outside it, a file every line of which spells a secret.
func swapProject(t *testing.T) (app, outside string) {
	t.Helper()
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	app = filepath.Join(proj, StoryFile)
	src := "# kitsoki:ignore no-such-rule-inside\nname: x\nstates: [\n"
	if err := os.WriteFile(app, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	outside = filepath.Join(base, "secret.yaml")
	var b strings.Builder
	for range 10 {
		b.WriteString("# kitsoki:ignore OUTSIDE-SECRET\n")
	}
	if err := os.WriteFile(outside, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return app, outside
}

// swapOut replaces p by a symbolic link to target.
func swapOut(t *testing.T, p, target string) {
	t.Helper()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// The ignore markers of a file the load did not keep are read through
// the load's root: a manifest swapped for a link out between the load and
// the marker scan has nothing outside read (its marker's ids were quoted
// in a "no rule has this id" warning), and left in place it is scanned.
func TestIgnoreScanReadsThroughTheRoot(t *testing.T) {
	for _, swap := range []bool{false, true} {
		app, outside := swapProject(t)
		files := []string{app}
		per := []checked{checkFile(app, Options{}, false)}
		if swap {
			swapOut(t, app, outside)
		}
		kept, roots := sourcesOf(per)
		var text strings.Builder
		for _, d := range applyIgnores(files, per, kept, roots, true) {
			text.WriteString(d.String() + "\n")
		}
		out := text.String()
		if strings.Contains(out, "OUTSIDE-SECRET") {
			t.Fatalf("swap %v: a marker outside the project was read:\n%s", swap, out)
		}
		if inside := strings.Contains(out, "no-such-rule-inside"); inside == swap {
			t.Fatalf("swap %v: the marker inside reported %v:\n%s", swap, inside, out)
		}
	}
}

// A snippet under a finding comes from the bytes the load kept or a read
// through its root: a story file swapped for a link out after Run has no
// line quoted, left in place its line is.
func TestSnippetReadsThroughTheRoot(t *testing.T) {
	for _, swap := range []bool{false, true} {
		app, outside := swapProject(t)
		res := Run([]string{app}, Options{Story: story.Options{LookupEnv: noEnv}})
		if len(res.Diagnostics) == 0 {
			t.Fatal("no finding")
		}
		if swap {
			swapOut(t, app, outside)
		}
		var b bytes.Buffer
		if err := diag.WriteHuman(&b, res.Diagnostics, diag.HumanOptions{Snippet: true, Source: res.Source}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.Contains(out, "OUTSIDE-SECRET") {
			t.Fatalf("a line outside the project was quoted:\n%s", out)
		}
		if quoted := strings.Contains(out, " | "); quoted == swap {
			t.Fatalf("swap %v: snippet quoted %v:\n%s", swap, quoted, out)
		}
	}
}

// The fixture lint's ignore scan reads a file it did not keep through the
// story's root: one swapped for a link out between two scans is no longer
// read (its markers came from outside), one left inside is.
func TestFixtureMarkersReadThroughTheRoot(t *testing.T) {
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(proj, StoryFile)
	if err := os.WriteFile(app, []byte("name: x\nroot: a\nstates:\n  a: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	other, outside := filepath.Join(proj, "other.yaml"), filepath.Join(base, "secret.yaml")
	for _, p := range []string{other, outside} {
		if err := os.WriteFile(p, []byte("# kitsoki:ignore\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	st, _ := story.Load(app, story.Options{LookupEnv: noEnv})
	if st == nil {
		t.Fatal("story did not load")
	}
	src := fixtureMarkers(st, nil)
	if _, ok := src(other); !ok {
		t.Fatal("a file inside the project with a marker not read")
	}
	swapOut(t, other, outside)
	if b, ok := src(other); ok {
		t.Fatalf("a file linked out read: %q", b)
	}
}
