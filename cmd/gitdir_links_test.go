package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Nothing a repository names is read from inside its .git directory, by
// a link or by a path through one: a story's include or import, a fixture
// file, an intents file, a recording. Each is refused at its key, unread,
// naming the .git directory, in validate, test --sandbox and test
// intents alike, as templates and ctx.fs already refused such reads
// (a checkout's .git/config may hold the CI job's token). Before,
// validate and test read them: flows/ and intents/ links into .git were
// parsed and quoted in their findings, an include was merged into the
// story ("unknown key \"token-4f9c2e\"").
func TestGitDirLinksAreNotRead(t *testing.T) {
	dir := t.TempDir()
	mk := func(p, body string) {
		t.Helper()
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	mk(".git/evil.yaml", "token-4f9c2e: x\n")
	mk(".git/intents.yaml", "test_kind: intents\nstate: a\nfixtures:\n  - {id: token-4f9c2e, inputs: [q]}\n")
	mk(".git/flow.yaml", "test_kind: flow\ninitial_state: token-4f9c2e\nturns:\n  - intent: {name: go}\n")
	const app = "app: {id: g, version: 0.1.0}\nintents: {go: {}}\nroot: a\nstates:\n  a: {on: {go: [{target: a}]}}\n"
	mk("s/app.yaml", app)
	link("../../.git/flow.yaml", "s/flows/leak.yaml")
	link("../../.git/intents.yaml", "s/intents/leak.yaml")
	link("../.git", "s/gitlink")
	mk("inc/app.yaml", strings.Replace(app, "root: a", "include: [gitlink/evil.yaml]\nroot: a", 1))
	link("../.git", "inc/gitlink")
	mk("rec/app.yaml", app)
	mk("rec/intents/a.yaml", "test_kind: intents\nstate: a\nfixtures:\n  - {id: x, inputs: [q]}\n")
	link("../.git/evil.yaml", "rec/recording.yaml")
	t.Chdir(dir)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"validate", "s"}, []string{`fixture file s/flows/leak.yaml: it is inside a .git directory`, `intents file s/intents/leak.yaml: it is inside a .git directory`}},
		{[]string{"test", "--sandbox", "s"}, []string{`fixture file s/flows/leak.yaml: it is inside a .git directory`}},
		{[]string{"validate", "inc"}, []string{`include "gitlink/evil.yaml": inc/gitlink/evil.yaml: it is inside a .git directory`}},
		{[]string{"test", "intents", "rec"}, []string{`rec/recording.yaml: it is inside a .git directory`}},
	} {
		code, stdout, stderr := runCmd(t, c.args...)
		out := stdout + stderr
		if code == 0 {
			t.Errorf("%v: exit 0, want a refusal:\n%s", c.args, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, w, out)
			}
		}
		if strings.Contains(out, "4f9c2e") {
			t.Errorf("%v: output quotes a file inside .git:\n%s", c.args, out)
		}
	}
}
