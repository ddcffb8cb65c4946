package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// The fixture-reading commands read a project's flows/, intents/ and
// recording.yaml through its project root: a directory or file there that
// is a symlink leading out of the project is refused with an error naming
// it, and nothing outside is read or quoted; a symlink that stays inside
// keeps working.

const confineCanary = "CANARY-flowconfine-7q2"

const confineStory = `app: { id: hostile, version: 0.1.0, title: "hostile" }
world:
  n: { type: int, default: 0 }
intents:
  go: { description: "go" }
root: start
states:
  start:
    view: "hello {{ world.n }}"
    on:
      go: [ { target: done } ]
  done:
    terminal: true
`

const confineFlow = `test_kind: flow
initial_state: start
turns:
  - intent: { name: go }
    expect_state: done
`

// confineProject writes a git-marked project holding the story and returns
// it, with a directory outside it holding the canary.
func confineProject(t *testing.T) (proj, outside string) {
	t.Helper()
	base := t.TempDir()
	proj, outside = filepath.Join(base, "proj"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(proj, ".git"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFileT(t, filepath.Join(proj, "app.yaml"), confineStory)
	return proj, outside
}

func writeFileT(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlinkT(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// canaryFlow is a fixture whose every quoted part names the canary.
const canaryFlow = `test_kind: flow
initial_state: start
description: ` + confineCanary + `
turns:
  - intent: { name: go }
    expect_state: ` + confineCanary + `
`

func TestFixtureDirLinkOutRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		lay  func(t *testing.T, proj, outside string)
	}{
		{"flows dir absolute link", func(t *testing.T, proj, outside string) {
			writeFileT(t, filepath.Join(outside, "flows", "a.yaml"), canaryFlow)
			symlinkT(t, filepath.Join(outside, "flows"), filepath.Join(proj, "flows"))
		}},
		{"flows dir relative link", func(t *testing.T, proj, outside string) {
			writeFileT(t, filepath.Join(outside, "flows", "a.yaml"), canaryFlow)
			symlinkT(t, "../outside/flows", filepath.Join(proj, "flows"))
		}},
		{"fixture file link", func(t *testing.T, proj, outside string) {
			writeFileT(t, filepath.Join(outside, "a.yaml"), canaryFlow)
			if err := os.MkdirAll(filepath.Join(proj, "flows"), 0o755); err != nil {
				t.Fatal(err)
			}
			symlinkT(t, "../../outside/a.yaml", filepath.Join(proj, "flows", "a.yaml"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proj, outside := confineProject(t)
			tc.lay(t, proj, outside)
			app := filepath.Join(proj, "app.yaml")
			for _, args := range [][]string{{"validate", app}, {"test", app}, {"test", "flows", app}} {
				refusedOutside(t, proj, args)
			}
		})
	}
}

func TestFixtureDirLinkInsideKept(t *testing.T) {
	proj, _ := confineProject(t)
	writeFileT(t, filepath.Join(proj, "shared", "flows", "a.yaml"), confineFlow)
	symlinkT(t, "shared/flows", filepath.Join(proj, "flows"))
	app := filepath.Join(proj, "app.yaml")
	for _, args := range [][]string{{"validate", app}, {"test", app}, {"test", "flows", app}} {
		code, stdout, stderr := runCmd(t, args...)
		if code != 0 {
			t.Errorf("%v: exit %d, want 0:\n%s%s", args, code, stdout, stderr)
		}
	}
	if _, stdout, _ := runCmd(t, "test", app); !strings.Contains(stdout, "1 passed") {
		t.Errorf("the fixture behind the inside link did not run:\n%s", stdout)
	}
}

const confineIntents = `test_kind: intents
state: start
fixtures:
  - id: a
    intent: { name: go }
    inputs: ["` + confineCanary + `"]
`

const confineRecording = `kind: recording
entries:
  - state: start
    input: "` + confineCanary + `"
    intent: { name: go }
`

func TestIntentsLinkOutRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		lay  func(t *testing.T, proj, outside string)
	}{
		{"intents dir link", func(t *testing.T, proj, outside string) {
			writeFileT(t, filepath.Join(outside, "intents", "a.yaml"), confineIntents)
			symlinkT(t, filepath.Join(outside, "intents"), filepath.Join(proj, "intents"))
			writeFileT(t, filepath.Join(proj, "recording.yaml"), strings.ReplaceAll(confineRecording, confineCanary, "hi"))
		}},
		{"recording link", func(t *testing.T, proj, outside string) {
			writeFileT(t, filepath.Join(proj, "intents", "a.yaml"), strings.ReplaceAll(confineIntents, confineCanary, "hi"))
			writeFileT(t, filepath.Join(outside, "rec.yaml"), confineRecording)
			symlinkT(t, filepath.Join(outside, "rec.yaml"), filepath.Join(proj, "recording.yaml"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proj, outside := confineProject(t)
			tc.lay(t, proj, outside)
			app := filepath.Join(proj, "app.yaml")
			for _, args := range [][]string{{"test", "intents", app}, {"test", app}} {
				refusedOutside(t, proj, args)
			}
		})
	}
}

func TestIntentsInsideKept(t *testing.T) {
	proj, _ := confineProject(t)
	writeFileT(t, filepath.Join(proj, "data", "intents", "a.yaml"), strings.ReplaceAll(confineIntents, confineCanary, "hi"))
	writeFileT(t, filepath.Join(proj, "data", "rec.yaml"), strings.ReplaceAll(confineRecording, confineCanary, "hi"))
	symlinkT(t, "data/intents", filepath.Join(proj, "intents"))
	symlinkT(t, "data/rec.yaml", filepath.Join(proj, "recording.yaml"))
	code, stdout, stderr := runCmd(t, "test", "intents", filepath.Join(proj, "app.yaml"))
	if code != 0 {
		t.Errorf("exit %d, want 0:\n%s%s", code, stdout, stderr)
	}
}

// An output file under the project root whose directory is a symlink
// leading out of it (.kitsoki/ -> elsewhere, .kitsoki/sessions -> ...) is
// refused before anything is written; nothing lands outside. A link that
// stays inside keeps working.
func TestOutputUnderKitsokiLinkOutRefused(t *testing.T) {
	for _, tc := range []struct {
		name, link string // link: the symlink in the project leading to outside/d
		args       []string
	}{
		{"test --coverprofile", ".kitsoki", []string{"test", "app.yaml", "--coverprofile", ".kitsoki/coverage.json"}},
		{"test --json", ".kitsoki", []string{"test", "app.yaml", "--json", ".kitsoki/report.json"}},
		{"test --junit", ".kitsoki", []string{"test", "app.yaml", "--junit", ".kitsoki/junit.xml"}},
		{"run default trace, .kitsoki linked", ".kitsoki", []string{"run", "app.yaml", "--intent", "go"}},
		{"run default trace, sessions linked", ".kitsoki/sessions", []string{"run", "app.yaml", "--intent", "go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proj, outside := confineProject(t)
			writeFileT(t, filepath.Join(proj, "flows", "a.yaml"), confineFlow)
			target := filepath.Join(outside, "d")
			if err := os.MkdirAll(target, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(proj, tc.link)), 0o755); err != nil {
				t.Fatal(err)
			}
			symlinkT(t, target, filepath.Join(proj, tc.link))
			t.Chdir(proj)
			code, stdout, stderr := runCmd(t, tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2:\n%s%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, "leading out of the project root "+proj) {
				t.Errorf("the refusal does not say the link leads out of %s:\n%s", proj, stderr)
			}
			ents, err := os.ReadDir(target)
			if err != nil || len(ents) != 0 {
				t.Errorf("something was written outside the project: %v %v", ents, err)
			}
		})
	}
}

func TestOutputUnderKitsokiLinkInsideKept(t *testing.T) {
	proj, _ := confineProject(t)
	writeFileT(t, filepath.Join(proj, "flows", "a.yaml"), confineFlow)
	if err := os.MkdirAll(filepath.Join(proj, "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlinkT(t, "state", filepath.Join(proj, ".kitsoki"))
	t.Chdir(proj)
	if code, stdout, stderr := runCmd(t, "test", "app.yaml", "--coverprofile", ".kitsoki/coverage.json"); code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(proj, "state", "coverage.json")); err != nil {
		t.Errorf("the profile was not written through the inside link: %v", err)
	}
	if code, stdout, stderr := runCmd(t, "run", "app.yaml", "--intent", "go"); code != 0 {
		t.Fatalf("run: exit %d:\n%s%s", code, stdout, stderr)
	}
	if m, _ := filepath.Glob(filepath.Join(proj, "state", "sessions", "*.jsonl")); len(m) != 1 {
		t.Errorf("the run's trace is not under the inside link: %v", m)
	}
}

func TestMCPDefaultTraceLinkOutRefused(t *testing.T) {
	proj, outside := confineProject(t)
	symlinkT(t, outside, filepath.Join(proj, ".kitsoki"))
	t.Chdir(proj)
	var stdout, stderr strings.Builder
	err := runMCPServe(t.Context(), strings.NewReader(""), &stdout, &stderr, "app.yaml", &mcpServeFlags{})
	if err == nil || !strings.Contains(err.Error(), "leading out of the project root "+proj) {
		t.Errorf("err %v, want a refusal naming the root", err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("something was written outside the project: %v", ents)
	}
}

// With no project marker, `kitsoki test DIR/...` takes DIR as the root
// (the story loader's rule): a flows/ link to a sibling folder inside DIR
// is listed.
func TestFixtureDirLinkInsideTreeKept(t *testing.T) {
	base := storytest.TempTree(t, map[string]string{
		"story/app.yaml":      confineStory,
		"shared/flows/a.yaml": confineFlow,
	})
	symlinkT(t, "../shared/flows", filepath.Join(base, "story", "flows"))
	code, stdout, stderr := runCmd(t, "test", base+"/...")
	if code != 0 || !strings.Contains(stdout, "1 passed") {
		t.Errorf("exit %d, want the fixture behind the link to pass:\n%s%s", code, stdout, stderr)
	}
}

// refusedOutside runs the command args and fails unless it refuses,
// saying the link leads out of proj, without quoting the file outside.
func refusedOutside(t *testing.T, proj string, args []string) {
	t.Helper()
	code, stdout, stderr := runCmd(t, args...)
	out := stdout + stderr
	if code == 0 {
		t.Errorf("%v: exit 0, want a refusal:\n%s", args, out)
	}
	if strings.Contains(out, confineCanary) {
		t.Errorf("%v quotes the file outside the project:\n%s", args, out)
	}
	if !strings.Contains(out, "leading out of the project root "+proj) {
		t.Errorf("%v: the refusal does not say the link leads out of %s:\n%s", args, proj, out)
	}
}

// expect_files names files inside the project root only: one outside
// (absolute, climbing out with "..", or through a symlink leading out)
// fails the fixture and the lint unread, whatever it holds, so a
// fixture's verdict cannot tell whether a file outside exists or what it
// holds.
func TestExpectFilesOutsideRefused(t *testing.T) {
	for _, tc := range []struct{ name, path, want string }{
		{"absolute", "OUTSIDE/secret", "leaves the project root "},
		{"dot-dot", "../../outside/secret", "leaves the project root "},
		{"link", "link", "leading out of the project root "},
	} {
		for _, check := range []string{"content_matches: \"^" + confineCanary + "\"", "content_matches: \"^nope\"", "must_not_exist: true", "{}"} {
			t.Run(tc.name+" "+check, func(t *testing.T) {
				proj, outside := confineProject(t)
				writeFileT(t, filepath.Join(outside, "secret"), confineCanary+"\n")
				entry := "  - path: " + strings.ReplaceAll(tc.path, "OUTSIDE", outside) + "\n"
				if check != "{}" {
					entry += "    " + check + "\n"
				}
				writeFileT(t, filepath.Join(proj, "flows", "a.yaml"), confineFlow+"expect_files:\n"+entry)
				symlinkT(t, filepath.Join(outside, "secret"), filepath.Join(proj, "flows", "link"))
				app := filepath.Join(proj, "app.yaml")
				for _, args := range [][]string{{"test", "--sandbox", app}, {"validate", app}} {
					code, stdout, stderr := runCmd(t, args...)
					out := stdout + stderr
					if code != 1 || !strings.Contains(out, "expect_files \"") || !strings.Contains(out, tc.want+proj) {
						t.Errorf("%v: exit %d, want 1 and a refusal naming the root:\n%s", args, code, out)
					}
					for _, leak := range []string{"content does not match", "file is present", "does not exist", confineCanary + "\n"} {
						if strings.Contains(out, leak) {
							t.Errorf("%v tells about the file outside (%q):\n%s", args, leak, out)
						}
					}
				}
			})
		}
	}
}

func TestExpectFilesInsideKept(t *testing.T) {
	proj, _ := confineProject(t)
	writeFileT(t, filepath.Join(proj, "data", "out.txt"), "hello\n")
	writeFileT(t, filepath.Join(proj, "flows", "a.yaml"), confineFlow+`expect_files:
  - { path: ../data/out.txt, content_matches: "^hello" }
  - { path: link, content_matches: "^hello" }
  - { path: ../data/none.txt, must_not_exist: true }
`)
	symlinkT(t, "../data/out.txt", filepath.Join(proj, "flows", "link"))
	app := filepath.Join(proj, "app.yaml")
	for _, args := range [][]string{{"test", "--sandbox", app}, {"validate", app}} {
		if code, stdout, stderr := runCmd(t, args...); code != 0 {
			t.Errorf("%v: exit %d, want 0:\n%s%s", args, code, stdout, stderr)
		}
	}
}
