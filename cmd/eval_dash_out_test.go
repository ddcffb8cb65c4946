package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -o - and --html - are refused with a usage error that says how to
// print instead; before, each wrote a file named "-" in the working
// directory (eval run said "wrote /work/-"), where --junit - and
// --markdown - print on standard output.
func TestEvalDashOutputIsRefused(t *testing.T) {
	dir, ds, cas := evStory(t, "  - {name: one, args: {x: a}, expect: {word: a}}\n")
	t.Chdir(dir)
	if code, _, errOut := runCmd(t, "eval", "run", "--cassette", cas, ds); code != 0 {
		t.Fatalf("run: %d %s", code, errOut)
	}
	latest := filepath.Join(dir, "evals", "reports", "pick", "latest.json")
	for _, args := range [][]string{
		{"eval", "run", "--cassette", cas, "-o", "-", ds},
		{"eval", "merge", ds, latest, "-o", "-"},
		{"eval", "show", ds, "--html", "-"},
		{"eval", "show", latest, "--html", "-"},
	} {
		code, _, errOut := runCmd(t, args...)
		if code != 2 || !strings.Contains(errOut, " -: the ") || !strings.Contains(errOut, "is written to a file, not to standard output; name a file") {
			t.Errorf("%v: exit %d\n%s", args, code, errOut)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "-")); err == nil {
		t.Errorf("a file named - was written in %s", dir)
	}
}
