//go:build unix

package flowtest

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// expect_files reads a file a real handler wrote in the fixture's working
// directory (conformance expect-files-written), but never through a
// symlink the handler left there leading out of it: a real host.run links
// d/x to a directory outside the project; the fixture naming d/x/secret.txt
// fails as absent, and the secret reaches no result. The control reads a
// file the same handler wrote for real.
func TestExpectFilesWrittenNotThroughLinkOut(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	storytest.WriteTree(t, base, map[string]string{
		"outside/secret.txt": fixtureCanary + "\n",
		"repo/.git/HEAD":     "ref: refs/heads/main\n",
		"repo/app.yaml": `app: {id: fw}
root: s
intents: {go: {}}
states:
  s:
    on:
      go:
        - target: e
          effects:
            - invoke: host.run
              with: {cmd: "mkdir -p d && ln -s '` + outside + `' d/x && echo written > d/real.txt"}
  e: {terminal: true}
`,
		"repo/flows/f.yaml": `test_kind: flow
initial_state: s
use_orchestrator: true
host_bindings: {host.run: host.run}
turns:
  - intent: {name: go}
    expect_state: e
expect_files:
  - {path: ../d/real.txt, content_matches: written}
  - {path: ../d/x/secret.txt, content_matches: "` + fixtureCanary[:6] + `"}
`,
	})
	app := filepath.Join(base, "repo", "app.yaml")
	files, _, err := DiscoverUnder("", nil, []string{app}, "", true, nil)
	if err != nil || len(files) != 1 {
		t.Fatalf("%v %d", err, len(files))
	}
	rs := NewRunner(Options{Jobs: 1}).Run(context.Background(), files)
	if len(rs) != 1 {
		t.Fatalf("results: %+v", rs)
	}
	fs := wantFail(t, rs[0], `expect_files[../d/x/secret.txt]: file does not exist`)
	if len(fs) != 1 {
		t.Fatalf("want only the linked file absent (the real one read), got %+v", fs)
	}
	out, _ := json.Marshal(rs[0])
	if strings.Contains(string(out), fixtureCanary) {
		t.Fatalf("the secret reached the result: %s", out)
	}
}

// A missing expect_files path is shown as upstream shows it (hunt21,
// storymut of expect-files-written): joined to the fixture's directory as
// the run named the story, so `test flows app.yaml` prints bugs/b3.md for
// ../bugs/b3.md, and an absolute story path an absolute one (it printed
// the absolute path either way).
func TestExpectFilesMissingShownAsNamed(t *testing.T) {
	base := t.TempDir()
	storytest.WriteTree(t, base, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"app.yaml": `app: {id: fm}
root: s
intents: {go: {}}
states:
  s: {on: {go: [{target: e}]}}
  e: {terminal: true}
`,
		"flows/f.yaml": `test_kind: flow
initial_state: s
turns:
  - intent: {name: go}
expect_files: [{path: ../bugs/b3.md}]
`,
	})
	t.Chdir(base)
	for app, want := range map[string]string{
		"app.yaml":                      "(resolved: bugs/b3.md)",
		filepath.Join(base, "app.yaml"): "(resolved: " + filepath.Join(base, "bugs", "b3.md") + ")",
	} {
		files, _, err := DiscoverUnder("", nil, []string{app}, "", true, nil)
		if err != nil || len(files) != 1 {
			t.Fatalf("%s: %v %d", app, err, len(files))
		}
		rs := NewRunner(Options{Jobs: 1}).Run(context.Background(), files)
		if len(rs) != 1 {
			t.Fatalf("results: %+v", rs)
		}
		wantFail(t, rs[0], "expect_files[../bugs/b3.md]: file does not exist "+want)
	}
}
