package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestValidateTellsNothingOfOutsidePaths: a story naming a prompt, a
// prompt_path or a schema outside its project (absolute, "..", or a
// symlink leading out) gets the same findings whether that path is an
// existing file, a directory or nothing at all: validate runs on
// strangers' pull requests, and a warning that differed ("file not
// found", "is a directory") told them what the CI machine holds
// (redteam6). A missing file inside the project is still reported.
func TestValidateTellsNothingOfOutsidePaths(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "file"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(outside, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	story := func(key, p string) string {
		return "app: {id: st, version: 0.1.0}\nhosts: [host.agent.decide]\nagents:\n  a: {system_prompt: x}\nworld:\n  v: {type: object, default: {}}\n" +
			"root: asking\nstates:\n  asking:\n    on_enter:\n      - invoke: host.agent.decide\n        id: ask\n" +
			"        with: {agent: a, " + key + ": \"" + p + "\"}\n        bind: {v: submitted}\n    on: {}\n"
	}
	for _, key := range []string{"prompt", "prompt_path", "schema"} {
		for _, form := range []string{"abs", "dotdot", "link"} {
			var outs []string
			for _, name := range []string{"file", "dir", "none"} {
				dir := storytest.TempTree(t, map[string]string{".git/HEAD": "ref: x\n", "prompts/.keep": ""})
				target := filepath.Join(outside, name)
				p := target
				switch form {
				case "dotdot":
					rel, err := filepath.Rel(dir, target)
					if err != nil {
						t.Fatal(err)
					}
					p = rel
				case "link":
					if err := os.Symlink(target, filepath.Join(dir, "prompts", "l")); err != nil {
						t.Fatal(err)
					}
					p = "prompts/l"
				}
				if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(story(key, p)), 0o644); err != nil {
					t.Fatal(err)
				}
				_, out, errOut := runCmd(t, "validate", dir, "--format", "json")
				out = strings.ReplaceAll(out+errOut, `\"`+p+`\"`, "P")
				out = strings.ReplaceAll(out, dir, "DIR")
				outs = append(outs, strings.ReplaceAll(out, target, "TARGET"))
			}
			if outs[0] != outs[1] || outs[1] != outs[2] {
				t.Errorf("%s %s: validate's findings differ for an outside file, directory and nothing:\nfile: %s\ndir:  %s\nnone: %s", key, form, outs[0], outs[1], outs[2])
			}
		}
	}
	// inside the project a missing prompt is still reported
	dir := storytest.TempTree(t, map[string]string{".git/HEAD": "ref: x\n", "app.yaml": story("prompt_path", "prompts/missing.md")})
	_, out, _ := runCmd(t, "validate", dir)
	if !strings.Contains(out, "file not found") {
		t.Errorf("a missing prompt inside the project is not reported:\n%s", out)
	}
}
