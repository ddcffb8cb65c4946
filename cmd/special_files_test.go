//go:build unix

package cmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// Every file kitsoki reads is a regular file read under a cap: a device,
// a symlink to one, or a FIFO given as a story file or a run input is
// refused with an error naming it, at once (no memory growth, no hang).
// A FIFO inside the project reaches the regular-file check; a device
// named by a story file lies outside the project, so confinement refuses
// it first (both are refusals that read nothing).
func TestSpecialFilesAreRefused(t *testing.T) {
	for _, special := range []string{"device", "fifo"} {
		for _, tc := range []struct {
			name string
			// storyFile: the special file is named by the story (include,
			// a link in the story's tree), not by the operator's flags.
			storyFile bool
			// setup writes the story into dir and returns the arguments;
			// bad is the special file, relative to dir when it lies there.
			setup func(dir, bad string) []string
		}{
			{"include", true, func(dir, bad string) []string {
				writeStoryIn(t, dir, "include: [\""+bad+"\"]\n"+minimalStory)
				return []string{"validate", dir}
			}},
			{"app.yaml symlink", true, func(dir, bad string) []string {
				if err := os.Symlink(bad, filepath.Join(dir, "app.yaml")); err != nil {
					t.Fatal(err)
				}
				return []string{"validate", dir}
			}},
			{"prompt symlink", true, func(dir, bad string) []string {
				writeStoryIn(t, dir, promptStory)
				if err := os.MkdirAll(filepath.Join(dir, "prompts"), 0o755); err != nil {
					t.Fatal(err)
				}
				if !filepath.IsAbs(bad) {
					bad = filepath.Join("..", bad)
				}
				if err := os.Symlink(bad, filepath.Join(dir, "prompts", "p.md")); err != nil {
					t.Fatal(err)
				}
				return []string{"validate", dir}
			}},
			{"--world-file", false, func(dir, bad string) []string {
				writeStoryIn(t, dir, minimalStory)
				return []string{"run", dir, "--world-file", bad}
			}},
			{"--cassette", false, func(dir, bad string) []string {
				writeStoryIn(t, dir, minimalStory)
				return []string{"run", dir, "--cassette", bad}
			}},
			{"--host-cassette", false, func(dir, bad string) []string {
				writeStoryIn(t, dir, minimalStory)
				return []string{"run", dir, "--host-cassette", bad}
			}},
			{"--profile", false, func(dir, bad string) []string {
				writeStoryIn(t, dir, minimalStory)
				return []string{"run", dir, "--profile", bad}
			}},
			{"--pins", false, func(dir, bad string) []string {
				return []string{"fetch-llama-server", "--pins", bad, "--cache-dir", filepath.Join(dir, "cache")}
			}},
		} {
			t.Run(special+"/"+tc.name, func(t *testing.T) {
				dir := t.TempDir()
				bad := "/dev/zero"
				// Any of wants in the error is the refusal this case means.
				wants := []string{"regular file"}
				if special == "fifo" {
					if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
						t.Fatal(err)
					}
					bad = filepath.Join(dir, "fifo")
					if tc.storyFile {
						bad = "fifo"
					}
				} else if tc.storyFile {
					wants = []string{"outside the story's roots", "out of the project root", "leaves the project root"}
				}
				args := tc.setup(dir, bad)
				stdout, stderr, code := hostile(t, "", args...)
				if code == 0 {
					t.Fatalf("kitsoki %v accepted %s:\n%s%s", args, bad, stdout, stderr)
				}
				all := stdout + stderr
				t.Log(strings.TrimSpace(all))
				if !slices.ContainsFunc(wants, func(w string) bool { return strings.Contains(all, w) }) {
					t.Fatalf("kitsoki %v: error says none of %q:\n%s", args, wants, all)
				}
			})
		}
	}
}

const minimalStory = `app: { id: special }
root: done
states:
  done:
    terminal: true
`

const promptStory = `app: { id: special }
root: ask
states:
  ask:
    terminal: true
    on_enter:
      - invoke: host.agent.ask
        with:
          prompt_path: prompts/p.md
`

func writeStoryIn(t *testing.T, dir, src string) {
	t.Helper()
	storytest.WriteFile(t, filepath.Join(dir, "app.yaml"), src)
}
