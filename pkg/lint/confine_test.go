package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// A prompt file outside the story's roots (absolute, "../", a symlink
// pointing out) is a load error; one inside, or in a declared overlay, is
// not. A schema outside the story directory is a load error too (every run
// would fail); one inside it but outside schemas/ loads, as upstream.
func TestPromptAndSchemaOutsideTheRootsAreErrors(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "passwd")
	if err := os.WriteFile(secret, []byte("root:x:0:0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, with string
		setup      func(dir string)
		rule       string // "" = no error
	}{
		{"inside", "prompt_path: prompts/p.md", nil, ""},
		{"overlay", "prompt_path: o.md", func(dir string) { storytest.WriteFile(t, filepath.Join(dir, "ov", "o.md"), "x") }, ""},
		{"absolute", "prompt_path: " + secret, nil, "prompt-root"},
		{"absolute prompt", "prompt: " + secret, nil, "prompt-root"},
		{"dotdot", "prompt_path: ../" + filepath.Base(outside) + "/passwd", func(dir string) {
			if err := os.Symlink(outside, filepath.Join(filepath.Dir(dir), filepath.Base(outside))); err != nil && !os.IsExist(err) {
				t.Fatal(err)
			}
		}, "prompt-root"},
		{"symlink out", "prompt_path: prompts/link.md", func(dir string) {
			if err := os.Symlink(secret, filepath.Join(dir, "prompts", "link.md")); err != nil {
				t.Fatal(err)
			}
		}, "prompt-root"},
		{"schema outside schemas/", "prompt_path: prompts/p.md, schema: mcp/v.json", func(dir string) { storytest.WriteFile(t, filepath.Join(dir, "mcp", "v.json"), `{"type":"object"}`) }, ""},
		{"schema outside the story", "prompt_path: prompts/p.md, schema: ../v.json", func(dir string) {
			storytest.WriteFile(t, filepath.Join(filepath.Dir(dir), "v.json"), `{"type":"object"}`)
		}, "schema"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "story")
			storytest.WriteFile(t, filepath.Join(dir, "prompts", "p.md"), "hello")
			storytest.WriteFile(t, filepath.Join(dir, "app.yaml"), "app: {id: c}\nagents: {j: {system_prompt: j}}\nprompts: {overlay: ov}\nroot: s\nstates:\n  s:\n    terminal: true\n    on_enter:\n      - invoke: host.agent.ask\n        with: {agent: j, "+tc.with+"}\n")
			if tc.setup != nil {
				tc.setup(dir)
			}
			_, ds := Load(dir, story.Options{})
			var errs []diag.Diagnostic
			for _, d := range ds {
				if d.Severity == diag.Error {
					errs = append(errs, d)
				}
			}
			if tc.rule == "" {
				if len(errs) > 0 {
					t.Fatalf("unexpected errors:\n%s", render(errs))
				}
				return
			}
			if len(errs) == 0 || errs[0].Rule != tc.rule || errs[0].Line == 0 || !strings.Contains(errs[0].Message, "outside") {
				t.Fatalf("want a positioned %s error, got:\n%s", tc.rule, render(ds))
			}
		})
	}
}
