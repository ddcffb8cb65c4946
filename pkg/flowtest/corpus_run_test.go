package flowtest

import (
	"context"
	"strings"
	"testing"
)

// Every corpus fixture (upstream passes all 50) either passes here or
// fails only with positioned "not supported yet" findings: never a wrong
// verdict. Run under -race it also drives many sessions of one machine at
// once.
func TestCorpusVerdicts(t *testing.T) {
	files := corpusFiles(t)
	rs := NewRunner(Options{Jobs: 2, Trees: []string{corpusDir}}).Run(context.Background(), files)
	passed, unsupported := 0, 0
	for _, r := range rs {
		if r.Fatal != nil {
			t.Errorf("%s: fatal: %s", r.Name, r.Fatal.Detail())
			continue
		}
		if r.Passed() {
			passed++
			continue
		}
		unsupported++
		for _, f := range r.Failures {
			if !strings.HasPrefix(f.Message, "not supported yet: ") {
				t.Errorf("%s: a wrong verdict (upstream passes it): %s", r.Name, f.Detail())
			} else if f.Pos.Line == 0 {
				t.Errorf("%s: unpositioned: %s", r.Name, f.Message)
			}
		}
	}
	t.Logf("%d corpus fixtures: %d pass, %d not supported yet", len(rs), passed, unsupported)
}
