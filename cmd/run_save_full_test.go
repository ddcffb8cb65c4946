//go:build linux

package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// fullSaveScript mounts a 64 KiB tmpfs on the story's flows/ (in a mount
// namespace of its own: unshare -Urm, no privilege needed), puts an earlier
// save's fixture and cassette there, saves over them with --force, and
// copies what flows/ holds then to after/, which outlives the namespace.
const fullSaveScript = `set -e
mount -t tmpfs -o size=64k tmpfs flows
cp before/* flows/
set +e
"$0" "$@"
echo "exit=$?"
cp -a flows/. after/
`

// A save whose fixture does not fit on the disk leaves the earlier save's
// fixture and cassette as they were: the new cassette never lands beside
// the old fixture (it used to be written first, then the fixture failed),
// and no scratch or temporary file is left.
func TestSaveFixtureDiskFullLandsNeither(t *testing.T) {
	if out, err := exec.Command("unshare", "-Urm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt").CombinedOutput(); err != nil {
		t.Skipf("no unprivileged tmpfs mount here (unshare -Urm): %v %s", err, out)
	}
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 100_000) // the fixture's expect_world holds it: more than the disk
	story := strings.Replace(saveStory, "intents:\n  count: {}\n", "intents:\n  count: {}\n  fill: {}\n", 1)
	story = strings.Replace(story, "      done: [ { target: finished } ]\n", "      done: [ { target: finished } ]\n      fill:\n        - target: idle\n          effects:\n            - set: { out: \""+big+"\" }\n", 1)
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml":                   strings.Replace(story, "%s", "{{ world.n }}", 1),
		"flows/.keep":                "",
		"after/.keep":                "",
		"before/saved.yaml":          "old fixture\n",
		"before/saved.cassette.yaml": "old cassette\n",
		".kitsoki/.keep":             "",
	})
	c := exec.Command("unshare", append([]string{"-Urm", "sh", "-c", fullSaveScript, bin},
		"run", dir, "--trace", filepath.Join(t.TempDir(), "t.jsonl"), "--intent", "count", "--intent", "count", "--intent", "fill",
		"--save-fixture", filepath.Join(dir, "flows", "saved.yaml"), "--force")...)
	c.Dir = dir
	c.Env = append(os.Environ(), asKitsokiEnv+"=1")
	out, err := c.CombinedOutput()
	if err != nil || strings.Contains(string(out), "exit=0") || !strings.Contains(string(out), "no space left on device") {
		t.Fatalf("the save on a full disk: %v\n%s", err, out)
	}
	ents, err := os.ReadDir(filepath.Join(dir, "after"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != ".keep saved.cassette.yaml saved.yaml" {
		t.Errorf("files in flows/ after the failed save: %v, want the earlier save's two", names)
	}
	for name, want := range map[string]string{"saved.yaml": "old fixture\n", "saved.cassette.yaml": "old cassette\n"} {
		if got, _ := os.ReadFile(filepath.Join(dir, "after", name)); string(got) != want {
			t.Errorf("%s after the failed save holds %.80q, want the earlier save's %q", name, got, want)
		}
	}
}
