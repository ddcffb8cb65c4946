package cmd

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/golden"
	"kitsoki/internal/testing/storytest"
)

// TestEvalRunSaysWhatIsWrong runs eval run as a demanding user would on
// the datasets that go wrong: each says what, where (file:line:col) and
// the fix, and a candidate that failed says why in the text
// (testdata/eval_run_findings.golden).
//   - typo: misspelt keys are warned at their place, the errors they
//     cause too (eval run printed neither place, only eval show did);
//   - empty and nomatrix: no candidate to measure is an error of the
//     run at matrix (exit 1), naming the story's aliases (it was a
//     warning, then a usage error saying it again, exit 2);
//   - allfail: a profile the cassette has no episode for is warned at its
//     place, and its candidate line is followed by why it failed and the
//     first failure (the cassette miss), which only the report held;
//   - wrong: a profile answering every example wrongly says so the same way;
//   - badcall: a misspelt call keeps upstream's error and gets a
//     "did you mean" warning at the same place;
//   - no cassette: --cassette naming no file is refused first, as kitsoki
//     run refuses it (it printed the warnings of the run it then refused,
//     and named no flag).
func TestEvalRunSaysWhatIsWrong(t *testing.T) {
	dir, _, cas := evStory(t, "  - {name: one, args: {x: a}, expect: {word: a}}\n")
	head := "kind: agent_eval\napp: ../app.yaml\ncall: pick\n"
	one := "examples:\n  - {name: one, args: {x: a}, expect: {word: a}}\n"
	sets := []struct{ name, body string }{
		{"typo", head + "matrix: {profiles: [fast], repet: 2}\ncomparatr: exact\nexamples:\n  - {name: one, arg: {x: a}, expct: {word: a}}\n"},
		{"empty", head + "matrix: {profiles: []}\ncomparator: exact\n" + one},
		{"nomatrix", head + "comparator: exact\n" + one},
		{"allfail", head + "matrix: {profiles: [ghost]}\ncomparator: exact\n" + one},
		{"badcall", strings.Replace(head, "call: pick", "call: pik", 1) + "matrix: {profiles: [fast]}\ncomparator: exact\n" + one},
		{"wrong", head + "matrix: {profiles: [fast]}\ncomparator: exact\nexamples:\n  - {name: one, args: {x: b}, expect: {word: b}}\n"},
	}
	var got strings.Builder
	for _, s := range sets {
		ds := filepath.Join(dir, "evals", s.name+".yaml")
		storytest.WriteTree(t, dir, map[string]string{"evals/" + s.name + ".yaml": s.body})
		code, out, errOut := runCmd(t, "eval", "run", "--no-progress", "--cassette", cas, "-o", filepath.Join(dir, s.name+".json"), ds)
		fmt.Fprintf(&got, "== %s: exit %d\n%s-- stderr\n%s", s.name, code, out, errOut)
	}
	// A --cassette that does not load is refused as kitsoki run refuses
	// it, before the findings of a run that will not happen.
	code, out, errOut := runCmd(t, "eval", "run", "--no-progress", "--cassette", filepath.Join(dir, "none.yaml"), filepath.Join(dir, "evals", "allfail.yaml"))
	fmt.Fprintf(&got, "== no cassette: exit %d\n%s-- stderr\n%s", code, out, errOut)
	golden.CheckString(t, filepath.Join("testdata", "eval_run_findings.golden"), strings.ReplaceAll(got.String(), dir, "DIR"))
}
