package flowtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestLintIntentSourcesStaysInTheProject: validate lists and reads a
// story's intent fixtures through its project root, as test intents does.
// An intents file or directory that a symlink leads out of the project is
// an error naming it (flow-outside-root), never read: before, validate
// read it and quoted the file it pointed at in a warning (a link to
// /etc/passwd, or to /proc/self/environ and the CI job's tokens, was
// printed whole as "the document is a scalar (...)").
func TestLintIntentSourcesStaysInTheProject(t *testing.T) {
	outside := storytest.TempTree(t, map[string]string{"secret.yaml": "TOKEN-4f9c2e\n", "named-4f9c2e.yaml": "x\n"})
	secret := filepath.Join(outside, "secret.yaml")
	const app = "app: {id: l, version: 0.1.0}\nintents: {go: {}}\nroot: a\nstates:\n  a: {on: {go: [{target: a}]}}\n"
	for _, c := range []struct {
		name, want string
		plant      func(dir string) error
	}{
		{"file", `intents file "`, func(dir string) error { return os.Symlink(secret, filepath.Join(dir, "intents", "bar.yaml")) }},
		{"directory", `intents directory "`, func(dir string) error {
			if err := os.RemoveAll(filepath.Join(dir, "intents")); err != nil {
				return err
			}
			return os.Symlink(outside, filepath.Join(dir, "intents"))
		}},
		// listed through the link, a directory holding no *.yaml (or none
		// at all) passed while one holding some failed: red team 47
		{"directory", `intents directory "`, func(dir string) error {
			if err := os.RemoveAll(filepath.Join(dir, "intents")); err != nil {
				return err
			}
			return os.Symlink(t.TempDir(), filepath.Join(dir, "intents"))
		}},
		{"directory", `intents directory "`, func(dir string) error {
			if err := os.RemoveAll(filepath.Join(dir, "intents")); err != nil {
				return err
			}
			return os.Symlink(filepath.Join(outside, "nowhere"), filepath.Join(dir, "intents"))
		}},
	} {
		dir := storytest.TempTree(t, map[string]string{
			".kitsoki/.keep": "",
			"app.yaml":       app,
			"intents/a.yaml": "test_kind: intents\nstate: a\nfixtures:\n  - {id: x, inputs: [q]}\n",
		})
		if err := c.plant(dir); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "app.yaml")
		if !HasIntents(p) {
			t.Errorf("%s: HasIntents = false; a link leading out counts, unlisted", c.name)
		}
		ld, err := NewRunner(Options{}).Story(p)
		if err != nil || ld.Story == nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		sources := map[string][]byte{}
		ds := LintIntentSources(p, ld.Story, sources)
		found := false
		for _, d := range ds {
			if strings.Contains(d.Message, "4f9c2e") {
				t.Errorf("%s: a finding quotes the file outside: %s", c.name, d.Message)
			}
			if d.Rule == ruleOutsideRoot.ID && strings.Contains(d.Message, c.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no flow-outside-root error naming the %s: %v", c.name, c.name, ds)
		}
		for f, b := range sources {
			if strings.Contains(string(b), "4f9c2e") {
				t.Errorf("%s: %s was read from outside", c.name, f)
			}
		}
	}
}
