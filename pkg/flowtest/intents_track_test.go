package flowtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/pkg/story"
)

// TestTrackBaseline: --update-baseline writes the run's rates; a later run
// against a baseline that was higher is a regression; a baseline that
// cannot be written is named.
func TestTrackBaseline(t *testing.T) {
	rep := runIntentDir(t, filepath.Join("testdata", "intents", "probe"), "", 0)
	path := filepath.Join(t.TempDir(), "base.json")
	app := &story.App{ID: "intent-probe", Version: "0.1.0"}
	if err := TrackBaseline(rep, "", path, 0.05, true, app, time.Unix(0, 0)); err != nil || len(rep.Regressions) != 0 {
		t.Fatalf("first run: %v %v", err, rep.Regressions)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), `"hall::pos-count": 0.5`) {
		t.Fatalf("baseline not written: %v\n%s", err, data)
	}
	os.WriteFile(path, []byte(strings.Replace(string(data), `"hall::pos-count": 0.5`, `"hall::pos-count": 0.9`, 1)), 0o644)
	if err := TrackBaseline(rep, "", path, 0.05, false, app, time.Unix(0, 0)); err != nil || len(rep.Regressions) != 1 || !strings.Contains(rep.Regressions[0], "hall::pos-count dropped 40.0%") {
		t.Fatalf("regression not found: %v %v", err, rep.Regressions)
	}
	bad := filepath.Join(path, "base.json") // under a file
	if err := TrackBaseline(rep, "", bad, 0.05, true, app, time.Unix(0, 0)); err == nil || !strings.HasPrefix(err.Error(), "--baseline "+bad+": ") {
		t.Fatalf("unwritable baseline: %v", err)
	}
}
