package story

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestManifestLinkedToADirectoryOutsideTellsNothing: an app.yaml that is a
// symlink to a directory outside the project gets the words a dangling link
// gets; it was followed to app.yaml/app.yaml, so a repository learned which
// directories the machine checking it holds (red team 47's hostile tree).
func TestManifestLinkedToADirectoryOutsideTellsNothing(t *testing.T) {
	top := t.TempDir()
	outside := filepath.Join(top, "repo-evil")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, outside, "app.yaml", "app: {id: SECRET}\nroot: SECRET\nstates:\n  SECRET: {terminal: true}\n")
	got := map[string]string{}
	for name, target := range map[string]string{"dir": outside, "dangling": filepath.Join(top, "nowhere")} {
		repo := filepath.Join(top, "repo-"+name)
		write(t, repo, ".kitsoki/keep", "")
		symlinkT(t, target, filepath.Join(repo, "s", StoryFile))
		for _, arg := range []string{"s", filepath.Join("s", StoryFile)} {
			_, ds := Load(filepath.Join(repo, arg), Options{})
			out := strings.ReplaceAll(render(ds), repo, "REPO")
			if strings.Contains(out, "SECRET") || strings.Contains(out, "app.yaml/app.yaml") || !strings.Contains(out, "leading out of the project root") {
				t.Errorf("%s, Load(%s):\n%s", name, arg, out)
			}
			got[name+" "+arg] = out
		}
	}
	if got["dir s"] != got["dangling s"] || got["dir s/app.yaml"] != got["dangling s/app.yaml"] {
		t.Errorf("a link to a directory outside reads unlike a dangling one:\n%v", got)
	}
}
