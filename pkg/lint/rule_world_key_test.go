package lint

import (
	"path/filepath"
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
