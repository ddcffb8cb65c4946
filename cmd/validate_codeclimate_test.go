package cmd

import (
	"encoding/json"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestValidateCodeClimate: --format codeclimate, run from a subdirectory of
// the repository as a GitLab job may, gives each finding's path relative to
// the repository root (where GitLab's merge request diff looks for it),
// and the exit status is validate's (1 on an error).
func TestValidateCodeClimate(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		".git/HEAD":          "ref: refs/heads/main\n",
		"stories/s/app.yaml": "app: { id: cc, version: 0.1.0 }\nintents:\n  go: {}\nroot: a\nstates:\n  a:\n    on:\n      go: [{target: nowhere}]\n",
	})
	t.Chdir(dir + "/stories")
	code, out, errOut := runCmd(t, "validate", "--format", "codeclimate", "s")
	var issues []struct {
		CheckName string `json:"check_name"`
		Severity  string `json:"severity"`
		Location  struct {
			Path  string `json:"path"`
			Lines struct {
				Begin int `json:"begin"`
			} `json:"lines"`
		} `json:"location"`
	}
	if err := json.Unmarshal([]byte(out), &issues); err != nil || code != exitFinding || len(issues) == 0 {
		t.Fatalf("exit %d, %v\n%s%s", code, err, out, errOut)
	}
	for _, is := range issues {
		if is.CheckName == "target" {
			if is.Location.Path != "stories/s/app.yaml" || is.Location.Lines.Begin != 8 || is.Severity != "major" {
				t.Fatalf("target finding: %+v", is)
			}
			return
		}
	}
	t.Fatalf("no target finding:\n%s", out)
}
