package story

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/safefile"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
)

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	storytest.WriteFile(t, filepath.Join(dir, name), content)
}

func TestIncludeMergeAndErrorsInIncludedFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", "app: {id: i}\nroot: a\ninclude: [rooms/*.yaml]\nintents: {go: {}}\nhosts: [host.run]\nstates:\n  a:\n    on:\n      go: [{target: b}]\n")
	write(t, dir, "rooms/1.yaml", "states:\n  b: {terminal: true}\nhosts: [host.inbox.add]\nworld: {x: 1}\napp: {id: ignored}\n")
	write(t, dir, "rooms/2.yaml", "states:\n  b: {}\n  c:\n    on:\n      go: [{target: a}]\n    terminl: true\nintents: {go: {}}\n")
	st, ds := Load(dir, Options{})
	if st.State("b") == nil || st.State("c") == nil || st.Var("x") == nil {
		t.Fatalf("merge incomplete")
	}
	if strings.Join(st.Hosts, ",") != "host.run,host.inbox.add" {
		t.Errorf("hosts union: %v", st.Hosts)
	}
	if st.App.ID != "i" {
		t.Errorf("app from included file must be dropped")
	}
	two := filepath.Join(dir, "rooms/2.yaml")
	want := map[string]bool{
		`include: state "b" is already declared`:   false,
		`include: intent "go" is already declared`: false,
		`unknown key "terminl"`:                    false,
	}
	for _, d := range ds {
		for w := range want {
			if strings.Contains(d.Message, w) {
				if d.File != two || d.Line == 0 {
					t.Errorf("%q reported at %s, want %s", w, d.Pos(), two)
				}
				want[w] = true
			}
		}
	}
	for w, ok := range want {
		if !ok {
			t.Errorf("missing %q in\n%s", w, render(ds))
		}
	}
}

// TestIncludeGlobListsNothingOutside: an include glob through a directory
// symlink leading out of the project root is refused at the include, and
// the names of the files there are never listed (they would be quoted).
func TestIncludeGlobListsNothingOutside(t *testing.T) {
	base := t.TempDir()
	write(t, base, "outside/CANARYname.yaml", "states: {x: {}}\n")
	dir := filepath.Join(base, "repo")
	write(t, dir, ".kitsoki/keep", "")
	write(t, dir, "app.yaml", "app: {id: i}\nroot: a\ninclude: [out/*.yaml, sub/out/*]\nstates:\n  a: {terminal: true}\n")
	symlinkT(t, filepath.Join(base, "outside"), filepath.Join(dir, "out"))
	symlinkT(t, "../../outside", filepath.Join(dir, "sub", "out"))
	_, ds := Load(dir, Options{})
	out := render(ds)
	if strings.Contains(out, "CANARY") {
		t.Fatalf("a name outside the root is quoted:\n%s", out)
	}
	for _, want := range []string{`include "out/*.yaml"`, `include "sub/out/*"`} {
		if !strings.Contains(out, want) || !strings.Contains(out, "[outside-root]") {
			t.Errorf("want %s refused as outside-root in:\n%s", want, out)
		}
	}
}

// TestIncludeGlobThroughSymlinkLoopIsBounded: ten symlinks to "." under
// x/ and a ten-level pattern name 10^10 paths; the glob stops at its
// limit with an error at the include instead of running out of memory.
func TestIncludeGlobThroughSymlinkLoopIsBounded(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".kitsoki/keep", "")
	write(t, dir, "app.yaml", "app: {id: i}\nroot: a\ninclude: [\"x/*/*/*/*/*/*/*/*/*/*.yaml\"]\nstates:\n  a: {terminal: true}\n")
	for i := range 10 {
		symlinkT(t, ".", filepath.Join(dir, "x", fmt.Sprintf("l%d", i)))
	}
	_, ds := Load(dir, Options{})
	out := render(ds)
	if !strings.Contains(out, fmt.Sprint(maxGlobEntries)) || !strings.Contains(out, `include glob "x/*/*/*/*/*/*/*/*/*/*.yaml"`) {
		t.Errorf("want the glob's limit at the include in:\n%s", out)
	}
}

// TestIncludeGlobFollowsSymlinksInside: a directory symlink that stays
// inside the root is followed, as filepath.Glob does.
func TestIncludeGlobFollowsSymlinksInside(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".kitsoki/keep", "")
	write(t, dir, "shared/rooms/b.yaml", "states:\n  b: {terminal: true}\n")
	write(t, dir, "app.yaml", "app: {id: i}\nroot: a\ninclude: [\"r*/*.yaml\"]\nstates:\n  a: {terminal: true}\n")
	symlinkT(t, "shared/rooms", filepath.Join(dir, "rooms"))
	st, ds := Load(dir, Options{})
	if st == nil || st.State("b") == nil {
		t.Fatalf("the room behind the symlink was not included:\n%s", render(ds))
	}
}

func symlinkT(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestIncludeMatchThatIsNoFileIsAnError: upstream reads every match of an
// include glob and refuses the story when one is a directory (rooms/* over
// a sub-directory, a directory named d.yaml) or a dangling symlink; ours
// skipped such a match and loaded the story (found walking story-format.md
// §1.1, probes inc_star_subdir, inc_dir_yaml, inc_dangling).
func TestIncludeMatchThatIsNoFileIsAnError(t *testing.T) {
	for name, tc := range map[string]struct {
		include, want string
		setup         func(t *testing.T, dir string)
	}{
		"subdir": {"rooms/*", `include "rooms/*": ` + "%s/rooms/more is a directory", func(t *testing.T, dir string) {
			write(t, dir, "rooms/more/x.yaml", "states: {y: {}}\n")
		}},
		"dir named yaml": {"rooms/*.yaml", `include "rooms/*.yaml": ` + "%s/rooms/d.yaml is a directory", func(t *testing.T, dir string) {
			write(t, dir, "rooms/d.yaml/x", "x")
		}},
		"directory named": {"rooms", `include "rooms": ` + "%s/rooms is a directory", func(t *testing.T, dir string) {}},
		"dangling symlink": {"rooms/*.yaml", `include "rooms/*.yaml": ` + "%s/rooms/b.yaml: no such file or directory", func(t *testing.T, dir string) {
			symlinkT(t, "nowhere.yaml", filepath.Join(dir, "rooms", "b.yaml"))
		}},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, ".kitsoki/keep", "")
			write(t, dir, "app.yaml", "app: {id: i}\nroot: a\ninclude: ["+tc.include+"]\nstates:\n  a: {terminal: true}\n")
			write(t, dir, "rooms/a.yaml", "states: {z: {}}\n")
			tc.setup(t, dir)
			st, ds := Load(dir, Options{})
			want := fmt.Sprintf(tc.want, dir)
			found := false
			for _, d := range ds {
				if strings.Contains(d.Message, want) && d.Line == 3 {
					found = true
				}
			}
			if !found {
				t.Errorf("want an error at app.yaml:3 containing %q, got:\n%s", want, render(ds))
			}
			if st != nil && tc.include != "rooms" && st.State("z") == nil {
				t.Errorf("the readable match rooms/a.yaml was not merged")
			}
		})
	}
}

// TestIncludeSameFileTwiceCollides: upstream merges every match, so a file
// matched by two patterns (or listed twice, or as rooms/a.yaml and
// ./rooms/a.yaml) collides with itself; ours merged it once and loaded the
// story (found walking story-format.md §1.1, probes b11/inc_twice*,
// b12/inc_twice_*). A file that declares only hosts: or nothing merges
// again cleanly, as upstream's.
func TestIncludeSameFileTwiceCollides(t *testing.T) {
	for name, tc := range map[string]struct {
		include, room, want string
	}{
		"two-patterns":  {"[rooms/*.yaml, rooms/a.yaml]", "states: {z: {}}\n", `include: state "z" is already declared`},
		"listed-twice":  {"[rooms/a.yaml, rooms/a.yaml]", "intents: {go: {}}\n", `include: intent "go" is already declared`},
		"dot-slash":     {"[rooms/a.yaml, ./rooms/a.yaml]", "world: {x: 1}\n", `include: world variable "x" is already declared`},
		"hosts-only":    {"[rooms/a.yaml, rooms/*.yaml]", "hosts: [host.git]\n", ""},
		"comments-only": {"[rooms/a.yaml, rooms/*.yaml]", "# nothing\n", ""},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, ".kitsoki/keep", "")
			write(t, dir, "app.yaml", "app: {id: i}\nroot: a\ninclude: "+tc.include+"\nstates:\n  a: {terminal: true}\n")
			write(t, dir, "rooms/a.yaml", tc.room)
			_, ds := Load(dir, Options{})
			var errs []string
			for _, d := range ds {
				if d.Severity == diag.Error {
					errs = append(errs, d.Message)
				}
			}
			if tc.want == "" {
				if len(errs) != 0 {
					t.Errorf("want no error, got %q", errs)
				}
				return
			}
			if len(errs) != 1 || !strings.Contains(errs[0], tc.want) || !strings.Contains(errs[0], "included again") {
				t.Errorf("want one error %q naming the second include, got %q", tc.want, errs)
			}
		})
	}
}

// TestIncludeFilesTotalOneFilesCap: a story's manifest and include: files
// together may hold what one file may (here a test limit of 400 bytes):
// the include that goes past it is refused, unparsed, at its place in
// include:, and no later file is read; under the limit all load.
func TestIncludeFilesTotalOneFilesCap(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".kitsoki/keep", "")
	manifest := "app: {id: i}\nroot: a\ninclude: [\"rooms/*.yaml\"]\nstates:\n  a: {terminal: true}\n"
	write(t, dir, "app.yaml", manifest)
	room := func(name string) string {
		return "states:\n  " + name + ":\n    view: \"" + strings.Repeat("x", 120) + "\"\n    terminal: true\n"
	}
	write(t, dir, "rooms/b.yaml", room("b"))
	write(t, dir, "rooms/c.yaml", room("c"))
	write(t, dir, "rooms/d.yaml", room("d"))
	limit := int64(len(manifest) + 2*len(room("b")))
	st, ds := Load(dir, Options{maxStoryBytes: limit})
	out := render(ds)
	for _, want := range []string{`include "rooms/*.yaml"`, "rooms/d.yaml brings the story's YAML", fmt.Sprintf("over the %d a story may total", limit), "imports:"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
	if st == nil || st.State("b") == nil || st.State("c") == nil || st.State("d") != nil {
		t.Error("want b and c merged, d refused unparsed")
	}
	if _, ds := Load(dir, Options{maxStoryBytes: limit + int64(len(room("d")))}); strings.Contains(render(ds), "brings the story's YAML") {
		t.Errorf("refused under the limit:\n%s", render(ds))
	}
	if (Options{}).storyBytes() != safefile.StoryYAML {
		t.Errorf("the production total is %d, want one file's cap %d", (Options{}).storyBytes(), safefile.StoryYAML)
	}
}
