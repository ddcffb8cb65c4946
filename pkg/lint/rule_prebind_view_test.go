package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// prebind-view in imported stories names the keys the existing engine's
// validate names (its WARN lines for conformance prebind-view-import, kept
// in upstream-validate.txt): a child's names are compared as upstream's
// fold gives them, one import at a time (out → c__out, world['out'] as
// written).
func TestPrebindViewInImports(t *testing.T) {
	dir := filepath.Join("..", "engine", "testdata", "conformance", "prebind-view-import")
	raw, err := os.ReadFile(filepath.Join(dir, "upstream-validate.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(raw))
	// a file's states are named upstream under its import path
	prefix := map[string]string{"app.yaml": "", "c/app.yaml": "c.", "c/g/app.yaml": "c.g."}
	msg := regexp.MustCompile(`^state "([^"]*)": .*\(world\.([^,)]*)(?:, (\S+) once imported)?\)`)
	_, ds := Load(filepath.Join(dir, "app.yaml"), story.Options{})
	var got []string
	for _, d := range ds {
		if d.Rule != rulePrebindView.ID {
			continue
		}
		m := msg.FindStringSubmatch(d.Message)
		rel, err := filepath.Rel(dir, d.File)
		if m == nil || err != nil {
			t.Fatalf("unexpected warning %s", d)
		}
		key := m[2]
		if m[3] != "" {
			key = m[3]
		}
		got = append(got, "state="+prefix[filepath.ToSlash(rel)]+m[1], "key="+key)
	}
	pairs := func(fs []string) []string {
		var out []string
		for i := 0; i+1 < len(fs); i += 2 {
			out = append(out, fs[i]+" "+fs[i+1])
		}
		slices.Sort(out)
		return out
	}
	if g, w := pairs(got), pairs(want); !slices.Equal(g, w) {
		t.Errorf("prebind-view warnings:\n%s\nupstream's:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
}
