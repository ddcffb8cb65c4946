package lint

import (
	"os"
	"path/filepath"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// TestBrokenStoryPerRule: every testdata/broken/<rule> story triggers
// <rule>, and every rule has such a story.
func TestBrokenStoryPerRule(t *testing.T) {
	ents, err := os.ReadDir(fixtures + "/broken")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range ents {
		rule := e.Name()
		have[rule] = true
		t.Run(rule, func(t *testing.T) {
			if _, ok := lookupRule(rule); !ok {
				t.Fatalf("testdata/broken/%s names no rule", rule)
			}
			_, ds := Load(filepath.Join(fixtures+"/broken", rule), story.Options{LookupEnv: noEnv})
			found := false
			for _, d := range ds {
				if d.Rule == rule {
					found = true
					// io: a manifest that cannot be read has no line to point at.
					if d.File == "" || (d.Line == 0 && rule != story.RuleIO.ID) {
						t.Errorf("diagnostic not positioned: %s", d)
					}
				}
			}
			if !found {
				t.Errorf("rule %s not triggered; got:\n%s", rule, render(ds))
			}
		})
	}
	for _, r := range Rules() {
		id := r.ID
		if id == story.RuleInternal.ID || id == ruleIgnore.ID { // internal: a bug no input triggers on purpose; ignore: reported by pkg/validate
			continue
		}
		if !have[id] {
			t.Errorf("rule %s has no testdata/broken/%s story", id, id)
		}
	}
}

func TestCleanStoryHasNoDiagnostics(t *testing.T) {
	st, ds := Load(fixtures+"/clean", story.Options{})
	if st == nil || len(ds) != 0 {
		t.Fatalf("clean story: %v\n%s", st, render(ds))
	}
}

func TestMissingManifestIsIOError(t *testing.T) {
	st, ds := Load(filepath.Join(t.TempDir(), "nope"), story.Options{})
	if st != nil || len(ds) != 1 || ds[0].Rule != story.RuleIO.ID || ds[0].Severity != diag.Error {
		t.Fatalf("got %v %s", st, render(ds))
	}
}
