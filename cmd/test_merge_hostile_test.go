package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestMergeRefusesForgedShards: kitsoki test merge reads reports
// another CI job wrote. A report whose counts are not its results', a
// flow marked passed over a failed turn, a null result or turn, or a
// shard given twice is refused naming the file and the fix; before, each
// merged with exit 0, counted passes that never ran, or panicked.
func TestTestMergeRefusesForgedShards(t *testing.T) {
	dir := testStory(t, map[string]string{"a.yaml": passFlow, "z_fail.yaml": failFlow})
	tmp := t.TempDir()
	s1, s2 := filepath.Join(tmp, "s1.json"), filepath.Join(tmp, "s2.json")
	runCmd(t, "test", dir, "--shard", "1/2", "--json", s1)
	runCmd(t, "test", dir, "--shard", "2/2", "--json", s2)
	if code, _, errOut := runCmd(t, "test", "merge", s1, s2); code != exitFinding {
		t.Fatalf("honest merge: %d %s", code, errOut)
	}
	write := func(name, body string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	failTurn := `{"TurnIndex":0,"Passed":false,"Failures":["boom"],"NewState":"x","View":"","Events":null}`
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"failed flow counted as passed", []string{write("counts.json", `{"Results":[{"File":"flows/x.yaml","Passed":false,"Turns":[`+failTurn+`],"Skipped":false}],"Passed":5,"Failed":0}`)},
			"counts.json: its counts (5 passed, 0 failed) are not its results' (0 passed, 1 failed)"},
		{"passes that never ran", []string{write("ghost.json", `{"Results":null,"Passed":40,"Failed":0}`)},
			"ghost.json: its counts (40 passed, 0 failed) are not its results' (0 passed, 0 failed)"},
		{"flow passed over a failed turn", []string{write("turn.json", `{"Results":[{"File":"flows/x.yaml","Passed":true,"Turns":[`+failTurn+`],"Skipped":false}],"Passed":1,"Failed":0}`)},
			"turn.json: Results[0] (flows/x.yaml) is marked passed but its turn 0 failed"},
		{"a null result", []string{write("null.json", `{"Results":[null],"Passed":0,"Failed":0}`)}, "null.json: Results[0] is null"},
		{"a null turn", []string{write("nullturn.json", `{"Results":[{"File":"a","Passed":false,"Turns":[null]}],"Passed":0,"Failed":1}`), "--junit", filepath.Join(tmp, "j.xml")}, "nullturn.json: Results[0] (a) Turns[0] is null"},
		{"empty results that merge to many times their size", []string{write("empty.json", `{"Results":[{}`+strings.Repeat(`,{}`, 9999)+`],"Passed":0,"Failed":10000}`)},
			"empty.json: 10000 results, turns, events and failures in 30039 bytes, fewer than 24 bytes each"},
		{"a shard given twice", []string{s1, s2, s1, s2}, "s1.json: the same report as "},
	}
	for _, c := range cases {
		code, out, errOut := runCmd(t, append([]string{"test", "merge"}, c.args...)...)
		if code != exitUsageEnv || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q, stdout %.200q; want exit %d naming %q", c.name, code, errOut, out, exitUsageEnv, c.want)
		}
	}
}
