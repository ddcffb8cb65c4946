package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
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
	_, ds := LoadSource("m.yaml", []byte(src), story.Options{})
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
	for _, r := range Rules() {
		if r.ID == "" || r.Summary == "" || strings.ContainsAny(r.ID, " _") {
			t.Errorf("bad rule %q: %q", r.ID, r.Summary)
		}
	}
}

var (
	render = storytest.Render
	noEnv  = storytest.NoEnv
)

// A check reads prompt and schema files through the story's project root,
// which opens a directory descriptor on demand: Load leaves none open.
func TestLoadLeavesNoDescriptorOpen(t *testing.T) {
	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd to count descriptors with")
	}
	dir := t.TempDir()
	write(t, dir, ".kitsoki/keep", "")
	write(t, dir, "prompts/p.md", "hello {{ world.x }}\n")
	write(t, dir, "schemas/s.json", `{"type": "object"}`)
	write(t, dir, "app.yaml", `app: {id: fd}
root: s
world: {x: {default: 1}}
states:
  s:
    terminal: true
    on_enter:
      - invoke: host.agent.decide
        with: {prompt_path: prompts/p.md, schema: schemas/s.json}
`)
	open := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(ents)
	}
	before := open()
	for range 20 {
		if st, ds := Load(dir, story.Options{LookupEnv: noEnv}); st == nil || diag.HasErrors(ds) {
			t.Fatalf("load: %s", render(ds))
		}
	}
	if after := open(); after > before {
		t.Fatalf("%d descriptors open after 20 loads, %d before", after, before)
	}
}
