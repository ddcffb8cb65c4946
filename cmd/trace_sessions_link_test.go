package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceSessionsDirLinkedOutIsNotListed: a checkout whose .kitsoki (or
// a directory on the way to the sessions directory) is a symbolic link
// leading out of the project led trace ls, and an id looked up by trace
// show, to the traces of the directory it names (the existing engine
// keeps its run traces, agent answers and command output included, in
// ~/.kitsoki/sessions): their names, sizes and app ids were listed and a
// trace read. The sessions directory is now refused unlisted, naming the
// link and the fix, whether its target exists or not; --sessions-dir
// naming a directory outside the project is the operator's and is read.
func TestTraceSessionsDirLinkedOutIsNotListed(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "home", ".kitsoki")
	trace := "20260101T000000Z-CANARYapp-abcd.jsonl"
	header := `{"kind":"session.header","app_id":"CANARYapp"}` + "\n"
	writeFileT(t, filepath.Join(outside, "sessions", trace), header)
	for _, target := range []string{outside, filepath.Join(base, "absent")} {
		repo := filepath.Join(t.TempDir(), "repo")
		writeFileT(t, filepath.Join(repo, ".git", "HEAD"), "")
		if err := os.Symlink(target, filepath.Join(repo, ".kitsoki")); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"trace", "ls"}, {"trace", "ls", "--json"}, {"trace", "show", "abcd"}, {"trace", "stats", "CANARYapp"}} {
			out, errOut, code := hostile(t, repo, args...)
			if strings.Contains(out+errOut, "CANARY") {
				t.Fatalf("kitsoki %v quotes a trace outside the project:\n%s%s", args, out, errOut)
			}
			wantFail(t, code, errOut, exitUsageEnv, ".kitsoki/sessions: the sessions directory goes through a symlink leading out of the project root", "--sessions-dir")
		}
	}
	out, errOut, code := hostile(t, "", "trace", "ls", "--sessions-dir", filepath.Join(outside, "sessions"))
	if code != 0 || !strings.Contains(out, "CANARYapp") {
		t.Fatalf("--sessions-dir outside the project, named by the operator: exit %d\n%s%s", code, out, errOut)
	}
}
