package storytest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// OutsideCanary is the text of LinkOutTargets' file: an answer holding it
// read the file outside.
const OutsideCanary = "OUTSIDE-CANARY"

// LinkOutTargets makes a directory standing for the machine outside a
// project and returns the three targets a link out may name there: a file
// (holding OutsideCanary), a directory and a missing path, in that order.
func LinkOutTargets(t testing.TB) (outside string, targets []string) {
	t.Helper()
	outside = t.TempDir()
	file, dir := filepath.Join(outside, "file.md"), filepath.Join(outside, "dir.md")
	if err := os.WriteFile(file, []byte(OutsideCanary), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return outside, []string{file, dir, filepath.Join(outside, "missing.md")}
}

// SameForEveryTarget asks answer what kitsoki says with a link out to
// each of targets (LinkOutTargets'), each target written TARGET, and fails
// where an answer differs from the first's, or holds the canary or the
// outside directory's path; it returns the first answer.
func SameForEveryTarget(t testing.TB, outside string, targets []string, answer func(target string) string) string {
	t.Helper()
	var first string
	for i, target := range targets {
		got := strings.ReplaceAll(answer(target), target, "TARGET")
		if strings.Contains(got, OutsideCanary) || strings.Contains(got, outside) {
			t.Errorf("a link out to %s: the answer tells what is outside:\n%s", target, got)
		}
		if i == 0 {
			first = got
		} else if got != first {
			t.Errorf("a link out to %s:\n%s\na link out to %s:\n%s", target, got, targets[0], first)
		}
	}
	return first
}
