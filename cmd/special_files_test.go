//go:build unix

package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// Every file kitsoki reads is a regular file read under a cap: a device,
// a symlink to one, or a FIFO given as a story file or a run input is
// refused with an error naming it, at once (no memory growth, no hang).
func TestSpecialFilesAreRefused(t *testing.T) {
	for _, special := range []string{"device", "fifo"} {
		for _, tc := range []struct {
			name string
			// setup writes the story into dir and returns the arguments;
			// bad is the special file.
			setup func(dir, bad string) []string
		}{
			{"include", func(dir, bad string) []string {
				writeStoryIn(t, dir, "include: [\""+bad+"\"]\n"+minimalStory)
				return []string{"validate", dir}
			}},
			{"app.yaml symlink", func(dir, bad string) []string {
				if err := os.Symlink(bad, filepath.Join(dir, "app.yaml")); err != nil {
					t.Fatal(err)
				}
				return []string{"validate", dir}
			}},
			{"prompt symlink", func(dir, bad string) []string {
				writeStoryIn(t, dir, promptStory)
				if err := os.MkdirAll(filepath.Join(dir, "prompts"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(bad, filepath.Join(dir, "prompts", "p.md")); err != nil {
					t.Fatal(err)
				}
				return []string{"validate", dir}
			}},
			{"--world-file", func(dir, bad string) []string {
				writeStoryIn(t, dir, minimalStory)
				return []string{"run", dir, "--world-file", bad}
			}},
			{"--cassette", func(dir, bad string) []string {
				writeStoryIn(t, dir, minimalStory)
				return []string{"run", dir, "--cassette", bad}
			}},
			{"--host-cassette", func(dir, bad string) []string {
				writeStoryIn(t, dir, minimalStory)
				return []string{"run", dir, "--host-cassette", bad}
			}},
			{"--profile", func(dir, bad string) []string {
				writeStoryIn(t, dir, minimalStory)
				return []string{"run", dir, "--profile", bad}
			}},
			{"--pins", func(dir, bad string) []string {
				return []string{"fetch-llama-server", "--pins", bad, "--cache-dir", filepath.Join(dir, "cache")}
			}},
		} {
			t.Run(special+"/"+tc.name, func(t *testing.T) {
				dir := t.TempDir()
				bad := "/dev/zero"
				if special == "fifo" {
					bad = filepath.Join(t.TempDir(), "fifo")
					if err := syscall.Mkfifo(bad, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				args := tc.setup(dir, bad)
				stdout, stderr, code := hostile(t, "", args...)
				if code == 0 {
					t.Fatalf("kitsoki %v accepted %s:\n%s%s", args, bad, stdout, stderr)
				}
				all := stdout + stderr
				t.Log(strings.TrimSpace(all))
				if !strings.Contains(all, "regular file") {
					t.Fatalf("kitsoki %v: error does not say the file is not a regular file:\n%s", args, all)
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
