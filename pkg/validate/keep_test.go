package validate

import (
	"os"
	"path/filepath"
	"testing"
)

// TestKeepStories: with KeepStories, Run hands back the model each file
// loaded to (nil for one that did not load); without it, none.
func TestKeepStories(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	for f, src := range map[string]string{
		good: "app: {id: good}\nintents: {go: {}}\nroot: a\nstates:\n  a: {on: {go: [{target: b}]}}\n  b: {terminal: true}\n",
		bad:  "app: [\n",
	} {
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := Run([]string{bad, good}, Options{KeepStories: true})
	if st := res.Stories[good]; st == nil || st.File != good || st.Root != "a" || len(st.States) != 2 {
		t.Fatalf("good: kept model %+v", st)
	}
	if st, ok := res.Stories[bad]; !ok || st != nil {
		t.Fatalf("bad: kept %v (listed %v), want a nil model", st, ok)
	}
	if !res.Invalid[bad] || res.Invalid[good] {
		t.Fatalf("invalid = %v", res.Invalid)
	}
	if res := Run([]string{good}, Options{}); res.Stories != nil {
		t.Fatalf("models kept without KeepStories: %v", res.Stories)
	}
}
