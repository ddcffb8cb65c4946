package lint

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// TestPlacesMadeAsData: every error of the broken and imported stories
// under testdata whose message starts with a state or intent place
// carries that place as data (diag.Diagnostic.Place), as the rule or the
// parser made it: the fold of an imported child renames the Place and
// never reads the message, so an error made without one would keep the
// child's names. In an imported child the Place keeps the child's own
// names while the message names the folded ones.
func TestPlacesMadeAsData(t *testing.T) {
	var stories []string
	for _, root := range []string{fixtures, "testdata"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Name() == "app.yaml" && !strings.Contains(path, "/bench/") {
				stories = append(stories, filepath.Dir(path))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	placed := 0
	for _, dir := range stories {
		_, ds := Load(dir, story.Options{LookupEnv: noEnv})
		for _, d := range ds {
			if d.Severity != diag.Error || !strings.HasPrefix(d.Message, `state "`) && !strings.HasPrefix(d.Message, `intent "`) {
				continue
			}
			if d.Place.IsZero() {
				t.Errorf("%s: made without its place as data: %s", dir, d)
				continue
			}
			placed++
		}
	}
	if placed < 100 {
		t.Errorf("%d placed errors in %d stories, want the testdata's hundreds", placed, len(stories))
	}
}
