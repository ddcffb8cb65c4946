package flowtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/pkg/story"
)

// TestBaselineReadThroughTheRoot: the --baseline file is read through the
// project root. kitsoki test intents refuses a baseline under a link
// leading out before the run, but the run is long and the read came after
// it by the path: a fixture's process (or anything beside kitsoki) that
// swapped the baseline's directory for a link out meanwhile had the file
// there read, and its pass rates told as regressions. The read itself now
// refuses the link, naming the flag, the path and the fix, the same
// whether the link's target exists or not; a link inside the root is
// still read.
func TestBaselineReadThroughTheRoot(t *testing.T) {
	rep := runIntentDir(t, filepath.Join("testdata", "intents", "probe"), "", 0)
	app := &story.App{ID: "intent-probe", Version: "0.1.0"}
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	outside := filepath.Join(base, "home", "rates")
	if err := os.MkdirAll(filepath.Join(root, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	high := []byte(`{"app_id":"OUTSIDE-CANARY","fixtures":{"hall::pos-count":0.99}}`)
	for _, dir := range []string{outside, filepath.Join(root, "real")} {
		if err := os.WriteFile(filepath.Join(dir, "base.json"), high, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var said []string
	for _, target := range []string{outside, filepath.Join(base, "absent")} {
		link := filepath.Join(root, "rates")
		os.Remove(link)
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(link, "base.json")
		rep.Regressions = nil
		err := TrackBaseline(rep, root, path, 0.05, false, app, time.Unix(0, 0))
		if len(rep.Regressions) != 0 {
			t.Fatalf("the baseline outside the root was read: %v", rep.Regressions)
		}
		if err == nil || !strings.HasPrefix(err.Error(), "--baseline "+path+": the path goes through a symlink leading out of the project root") || !strings.Contains(err.Error(), "remove the link") {
			t.Fatalf("link to %s: %v", target, err)
		}
		said = append(said, err.Error())
	}
	if said[0] != said[1] {
		t.Fatalf("the refusal tells whether the outside path exists:\n%s\n%s", said[0], said[1])
	}
	// a link that stays inside the root is read, by a relative or an absolute target
	for i, target := range []string{"real", filepath.Join(root, "real")} {
		link := filepath.Join(root, "in"+string(rune('a'+i)))
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		rep.Regressions = nil
		if err := TrackBaseline(rep, root, filepath.Join(link, "base.json"), 0.05, false, app, time.Unix(0, 0)); err != nil || len(rep.Regressions) != 1 {
			t.Fatalf("link %s inside the root: %v %v", target, err, rep.Regressions)
		}
	}
}
