package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/story"
)

// fixtures holds the stories the rules are tested on (broken/<rule>,
// clean, corpus, upstream): pkg/story's testdata, which the tests of other
// packages and docs/checks.md name too.
const fixtures = "../story/testdata"

// write writes content to dir/name, creating directories.
func write(t *testing.T, dir, name, content string) {
	t.Helper()
	storytest.WriteFile(t, filepath.Join(dir, name), content)
}

func TestEveryProblemInAFileIsReported(t *testing.T) {
	src := `app: {id: m}
root: a
states:
  a:
    on_entr: []
    on:
      go: [{target: nowhere}]
  b:
    terminl: true
    on:
      stop: [{target: elsewhere}]
`
	_, ds := LoadBytes("m.yaml", []byte(src), story.Options{})
	rules := map[string]int{}
	for _, d := range ds {
		rules[d.Rule]++
	}
	if rules["unknown-key"] != 2 || rules["target"] != 2 || rules["intent"] != 2 {
		t.Fatalf("want 2 unknown-key, 2 target, 2 intent; got %v\n%s", rules, render(ds))
	}
	for i := 1; i < len(ds); i++ {
		if ds[i-1].Line > ds[i].Line {
			t.Fatalf("not sorted: %s", render(ds))
		}
	}
}

func TestRulesHaveDescriptions(t *testing.T) {
	for id, desc := range RuleSummaries() {
		if id == "" || desc == "" || strings.ContainsAny(id, " _") {
			t.Errorf("bad rule %q: %q", id, desc)
		}
	}
}

var (
	render = storytest.Render
	noEnv  = storytest.NoEnv
)
