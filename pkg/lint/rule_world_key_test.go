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
