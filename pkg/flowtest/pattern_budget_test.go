package flowtest

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	storylint "kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// TestPatternBudgetIsTheStorys: the regexp compile budget is one per story
// load, however many files its patterns are split into. Five fixture
// files of some 40 bytes of aliases each (1,000 turns repeating one
// pattern of about 9,800 instructions) kept kitsoki validate busy 33 s,
// and twenty files of fifty distinct such patterns 10.6 s (kitsoki test
// --sandbox: 33 s), each file within the old budget of its own. Here a
// schema spends 58,000 of the story's 100,000 instructions, and of seven
// fixture files each holding a distinct pattern of about 9,800 the
// fifth is refused, by validate's lint and by the run, naming the file
// and the fix; a pattern repeated in every file is compiled and charged
// once.
func TestPatternBudgetIsTheStorys(t *testing.T) {
	costly := strings.Repeat(`[\\p{L}\\p{N}]{1,1000}`, 4) + `[\\p{L}\\p{N}]{1,900}`
	props := map[string]any{}
	for i := range 29 { // 29 of about 2,000 instructions each
		props[fmt.Sprint("p", i)] = map[string]any{"type": "string", "pattern": fmt.Sprintf(`[a-z]{1,1000}%d`, i)}
	}
	schema, err := json.Marshal(map[string]any{"type": "object", "properties": props})
	if err != nil {
		t.Fatal(err)
	}
	tree := map[string]string{
		"app.yaml": `app: {id: budget}
world:
  verdict: {type: object, default: {}}
intents:
  go: {}
  stay: {}
root: a
states:
  a:
    view: "A"
    on:
      stay: [{target: a}]
      go:
        - target: a
          effects:
            - invoke: host.agent.decide
              id: judge
              with:
                prompt: prompts/p.md
                schema: schemas/s.json
              bind:
                verdict: submitted
`,
		"prompts/p.md":   "judge",
		"schemas/s.json": string(schema),
	}
	for f := range 7 {
		tree[fmt.Sprintf("flows/f%d.yaml", f)] = fmt.Sprintf(`test_kind: flow
app: ../app.yaml
initial_state: a
turns:
  - &t
    intent: {name: stay, slots: {}}
    expect_view_matches: "%s"
  - *t
  - intent: {name: stay, slots: {}}
    expect_view_matches: "%sf%d"
`, costly, costly, f)
	}
	dir := t.TempDir()
	storytest.WriteTree(t, dir, tree)
	app := filepath.Join(dir, "app.yaml")

	st, ds := storylint.Load(app, story.Options{})
	if st == nil {
		t.Fatalf("the story does not load: %v", ds)
	}
	for _, d := range ds {
		if strings.Contains(d.Message, "instructions") {
			t.Errorf("the schema's patterns are within the budget: %s", d)
		}
	}
	fds, _ := LintStorySources(app, st)
	var refused []string
	for _, d := range fds {
		if d.Rule == ruleBadRegex.ID {
			if !strings.Contains(d.Message, "for the same story") || !strings.Contains(d.Message, "use fewer or shorter patterns") || d.Line != 10 {
				t.Errorf("the refusal names neither the story's budget nor the fix, or not the turn: %s", d)
			}
			refused = append(refused, filepath.Base(d.File))
		}
	}
	if got := strings.Join(refused, " "); got != "f3.yaml f4.yaml f5.yaml f6.yaml" {
		t.Errorf("lint refused the patterns of [%s], want those of f3.yaml to f6.yaml (58,000 and the repeated pattern and f0's to f2's, 4 × 9,800, fit 100,000)", got)
	}

	files, _, err := DiscoverUnder("", nil, []string{app}, "", false, nil)
	if err != nil || len(files) != 7 {
		t.Fatalf("discover: %v, %d files", err, len(files))
	}
	rs := NewRunner(Options{Jobs: 1}).Run(context.Background(), files)
	var runRefused int
	for _, r := range rs {
		for _, f := range r.Failures {
			if strings.Contains(f.Message, "for the same story") {
				runRefused++
			}
		}
	}
	if runRefused < 3 {
		t.Errorf("the run refused %d patterns past the story's budget, want 3 or more", runRefused)
	}
}
