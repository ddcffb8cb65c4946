package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// Rooted names (world.x, slots.x, state, run.story_dir) raise neither
// bare-name nor run-root; a bare name and run.turn each raise theirs.
func TestBareNameAndRunRootWarnings(t *testing.T) {
	dir := t.TempDir()
	src := `app: { id: b, version: 0.1.0 }
world:
  s: { type: string, default: "" }
intents: { go: { slots: { x: { type: string } } }, bad: {} }
root: r
states:
  r:
    on:
      go:
        - when: "world.s == '' && slots.x != nil"
          target: .
          effects:
            - set: { s: "{{ world.s }}{{ slots.x }}{{ state }}{{ run.story_dir }}" }
      bad:
        - target: .
          effects:
            - set: { s: "{{ nope }}{{ run.turn }}" }
`
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds := Load(dir, story.Options{})
	var got []string
	for _, d := range ds {
		if d.Rule == "bare-name" || d.Rule == "run-root" {
			got = append(got, d.Rule+": "+d.Message)
		}
	}
	if len(got) != 2 || !strings.Contains(got[0]+got[1], `names "nope"`) || !strings.Contains(got[0]+got[1], "reads run.turn") {
		t.Errorf("warnings:\n%s", strings.Join(got, "\n"))
	}
}
