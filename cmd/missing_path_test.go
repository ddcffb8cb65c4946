package cmd

import (
	"path/filepath"
	"testing"
)

// TestMissingStoryPathSaysFix: a story path that does not exist is named
// with the fix: the sibling it is a typo of, or what the argument may be.
// Before, each said only "X: no such file or directory".
func TestMissingStoryPathSaysFix(t *testing.T) {
	dir := writeStory(t, "app: {id: s}\nroot: a\nstates:\n  a: {}\n")
	typo := filepath.Join(filepath.Dir(dir), filepath.Base(dir)+"x")
	far := filepath.Join(dir, "nowhere-near")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", typo}, typo + ": no such file or directory; did you mean `" + dir + "`?"},
		{[]string{"run", filepath.Join(dir, "app.yml")}, filepath.Join(dir, "app.yml") + ": no such file or directory; did you mean `" + filepath.Join(dir, "app.yaml") + "`?"},
		{[]string{"run", far}, far + ": no such file or directory; pass a story directory or its app.yaml"},
		{[]string{"validate", far}, far + ": no such file or directory; give a story directory, its app.yaml or DIR/... (every story below DIR)"},
		{[]string{"test", typo + "/..."}, typo + ": no such file or directory; did you mean `" + dir + "/...`?"},
		{[]string{"test", "flows", far}, far + ": no such file or directory; give the story directory or its app.yaml"},
	} {
		code, out, errOut := runCmd(t, tc.args...)
		if code != exitUsageEnv || out != "" || errOut != "kitsoki: "+tc.want+"\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out, errOut, exitUsageEnv, tc.want)
		}
	}
}
