package lint

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// TestWorldKeyGoldens pins rule world-key's findings on one story per
// source of reads and of writes (testdata/world-key/<case>/): each story
// holds reads the rule must accept beside the one it must report, so a
// golden shows only the latter. Regenerate with -run WorldKeyGoldens
// -update.
func TestWorldKeyGoldens(t *testing.T) {
	dirs, err := filepath.Glob("testdata/world-key/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			_, ds := Load(dir, story.Options{LookupEnv: noEnv})
			var got []diag.Diagnostic
			for _, d := range ds {
				if d.Rule == ruleWorldKey.ID {
					got = append(got, d)
				}
			}
			checkGoldenAt(t, filepath.Join(dir, "expect.golden"), got)
		})
	}
}

// TestWorldKeyStarlarkComputedKey: a ctx.world.get whose key is not a
// literal is a key known only at run time, not a crash of the check.
func TestWorldKeyStarlarkComputedKey(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", "app: {id: p}\nroot: a\nstates:\n  a:\n    on_enter:\n      - invoke: host.starlark.run\n        with: {script: s.star}\n")
	write(t, dir, "s.star", "def main(ctx):\n    x = \"k\"\n    return ctx.world.get(x)\n")
	_, ds := Load(dir, story.Options{LookupEnv: noEnv})
	for _, d := range ds {
		if d.Rule == story.RuleInternal.ID {
			t.Fatalf("internal error: %s", d)
		}
	}
}

// TestWorldKeyIncludeBounds: includes are followed to the file that
// reads, naming the chain; a cycle, a chain deeper than the loader
// follows and a name leaving the story's template roots end the walk
// (rule pongo reports them) with no finding read outside the story.
func TestWorldKeyIncludeBounds(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "story")
	write(t, base, "outside.pongo", "{{ world.typo_outside }}")
	app := "app: {id: p}\nroot: a\nstates:\n  a:\n    view: \"{% include \\\"c0.pongo\\\" %}\"\n" +
		"  b:\n    view: \"{% include \\\"loop1.pongo\\\" %}\"\n" +
		"  c:\n    view: \"{% include \\\"d0.pongo\\\" %}\"\n" +
		"  d:\n    view: \"{% include \\\"../../outside.pongo\\\" %}{% include \\\"../views/../../outside.pongo\\\" %}\"\n"
	write(t, dir, "app.yaml", app)
	for i := range 5 {
		write(t, dir, "views/c"+strconv.Itoa(i)+".pongo", "{% include \"c"+strconv.Itoa(i+1)+".pongo\" %}")
	}
	write(t, dir, "views/c5.pongo", "x\n{{ world.typo_chain }}")
	write(t, dir, "views/loop1.pongo", "{{ world.typo_loop }}{% include \"loop2.pongo\" %}")
	write(t, dir, "views/loop2.pongo", "{% include \"loop1.pongo\" %}")
	for i := range 40 {
		write(t, dir, "views/d"+strconv.Itoa(i)+".pongo", "{% include \"d"+strconv.Itoa(i+1)+".pongo\" %}")
	}
	write(t, dir, "views/d40.pongo", "{{ world.typo_deep }}")
	got := worldKeyFindings(t, dir, diag.Diagnostic.String)
	if len(got) != 1 {
		t.Fatalf("world-key findings %d, want the chain's one: %q", len(got), got)
	}
	for _, want := range []string{"views/c5.pongo:2:10:", "world.typo_chain", "(included by " + filepath.Join(dir, "views/c4.pongo") + ", from ", "c0.pongo, from state \"a\" view at "} {
		if !strings.Contains(got[0], want) {
			t.Errorf("finding %q lacks %q", got[0], want)
		}
	}
}

// TestWorldKeyStarlarkLoadBounds: ctx is followed into loaded modules'
// helpers (by position and by name), a load() cycle (and the recursion it
// allows) ends the walk, and a module outside the story directory is not
// read.
func TestWorldKeyStarlarkLoadBounds(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "story")
	write(t, base, "out.star", "def f(ctx):\n    return ctx.world.get(\"typo_out\")\n")
	write(t, dir, "app.yaml", "app: {id: p}\nroot: a\nstates:\n  a:\n    on_enter:\n      - invoke: host.starlark.run\n        with: {script: s.star}\n")
	write(t, dir, "s.star", "load(\"a.star\", \"a\")\nload(\"../out.star\", \"f\")\nload(\"//../out.star\", g = \"f\")\n\ndef main(ctx):\n    return {\"x\": [a(ctx), f(ctx), g(ctx)]}\n")
	write(t, dir, "a.star", "load(\"b.star\", \"b\")\n\ndef a(c):\n    return [c.world.get(\"typo_a\"), b(k = c)]\n")
	write(t, dir, "b.star", "load(\"a.star\", \"a\")\n\ndef b(k):\n    return [k.world.get(\"typo_b\"), a(k)]\n")
	got := worldKeyFindings(t, dir, func(d diag.Diagnostic) string { return d.Message })
	if len(got) != 2 || !strings.Contains(got[0], "typo_a") || !strings.Contains(got[1], "typo_b") || !strings.Contains(got[1], "b.star (loaded by "+filepath.Join(dir, "a.star")+", loaded by "+filepath.Join(dir, "s.star")+", run at ") {
		t.Fatalf("world-key findings: %q", got)
	}
}

// worldKeyFindings loads dir and returns its world-key findings as show
// prints them, failing on an internal error.
func worldKeyFindings(t *testing.T, dir string, show func(diag.Diagnostic) string) []string {
	t.Helper()
	_, ds := Load(dir, story.Options{LookupEnv: noEnv})
	var got []string
	for _, d := range ds {
		if d.Rule == story.RuleInternal.ID {
			t.Fatalf("internal error: %s", d)
		}
		if d.Rule == ruleWorldKey.ID {
			got = append(got, show(d))
		}
	}
	return got
}
