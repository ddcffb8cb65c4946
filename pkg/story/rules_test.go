package story

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// TestBrokenStoryPerRule: every testdata/broken/<rule> story triggers
// <rule>, and every rule has such a story.
func TestBrokenStoryPerRule(t *testing.T) {
	ents, err := os.ReadDir("testdata/broken")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range ents {
		rule := e.Name()
		have[rule] = true
		t.Run(rule, func(t *testing.T) {
			if _, ok := RuleSummaries()[rule]; !ok {
				t.Fatalf("testdata/broken/%s names no rule", rule)
			}
			_, ds := Load(filepath.Join("testdata/broken", rule), Options{LookupEnv: noEnv})
			found := false
			for _, d := range ds {
				if d.Rule == rule {
					found = true
					// io: a manifest that cannot be read has no line to point at.
					if d.File == "" || (d.Line == 0 && rule != ruleIO.ID) {
						t.Errorf("diagnostic not positioned: %s", d)
					}
				}
			}
			if !found {
				t.Errorf("rule %s not triggered; got:\n%s", rule, render(ds))
			}
		})
	}
	for id := range RuleSummaries() {
		if id == ruleInternal.ID || id == ruleIgnore.ID { // internal: a bug no input triggers on purpose; ignore: reported by pkg/validate
			continue
		}
		if !have[id] {
			t.Errorf("rule %s has no testdata/broken/%s story", id, id)
		}
	}
}

func TestCleanStoryHasNoDiagnostics(t *testing.T) {
	st, ds := Load("testdata/clean", Options{})
	if st == nil || len(ds) != 0 {
		t.Fatalf("clean story: %v\n%s", st, render(ds))
	}
}

func TestMissingManifestIsIOError(t *testing.T) {
	st, ds := Load(filepath.Join(t.TempDir(), "nope"), Options{})
	if st != nil || len(ds) != 1 || ds[0].Rule != ruleIO.ID || ds[0].Severity != diag.Error {
		t.Fatalf("got %v %s", st, render(ds))
	}
}

func noEnv(string) (string, bool) { return "", false }

func render(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}
