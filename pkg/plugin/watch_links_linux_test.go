//go:build linux

package plugin

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"kitsoki/internal/testing/opened"
)

// TestWatchFilesListsWhatDiscoveryReads: WatchFiles (the files kitsoki
// mcp serve reads to see a change) globbed <plugins>/*/manifest.yaml, so
// it listed a manifest behind a link in the repository's
// .kitsoki/plugins/ leading out of the checkout, and the whole directory
// a linked .kitsoki/plugins leads to, and a repository profile a link led
// out (the watcher then read those files). It now lists what Assemble
// reads: links not followed, the repository's files through its root. A link loop, a link to an ancestor and
// FIFOs (in the directory, as a manifest) neither hang it nor Assemble.
func TestWatchFilesListsWhatDiscoveryReads(t *testing.T) {
	top := t.TempDir()
	outside := filepath.Join(top, "outside")
	writeFile(t, filepath.Join(outside, "evil", ManifestFile), "id: CANARY\nversion: 1\n")
	writeFile(t, filepath.Join(outside, ProfileFile), "version: 1\n")
	for name, linkPlugins := range map[string]bool{"links inside": false, "plugins linked out": true} {
		t.Run(name, func(t *testing.T) {
			repo := filepath.Join(t.TempDir(), "repo")
			plugins := filepath.Join(repo, ProfileDir, "plugins")
			for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(repo, ProfileDir)} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			// the repository's profile a link to the one outside
			if err := os.Symlink(filepath.Join(outside, ProfileFile), filepath.Join(repo, ProfileDir, ProfileFile)); err != nil {
				t.Fatal(err)
			}
			real := filepath.Join(plugins, "real", ManifestFile)
			if linkPlugins {
				if err := os.Symlink(outside, plugins); err != nil {
					t.Fatal(err)
				}
			} else {
				writeFile(t, real, "id: real\nversion: 1\n")
				for link, target := range map[string]string{"out": filepath.Join(outside, "evil"), "loop": "loop", "up": ".."} {
					if err := os.Symlink(target, filepath.Join(plugins, link)); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.MkdirAll(filepath.Join(plugins, "pipe"), 0o755); err != nil {
					t.Fatal(err)
				}
				for _, f := range []string{filepath.Join(plugins, "fifo"), filepath.Join(plugins, "pipe", ManifestFile)} {
					if err := syscall.Mkfifo(f, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			var files []string
			var a *Assembly
			var err, err2 error
			seen := opened.During(t, []string{outside, filepath.Join(outside, ProfileFile), filepath.Join(outside, "evil"), filepath.Join(outside, "evil", ManifestFile)}, func() {
				files = WatchFiles(repo, "")
				_, err = Assemble(Options{StoryDir: repo, NoUserProfile: true, Getenv: noEnv})
				// the same with the profile out of the way (Assemble refuses it)
				if rmErr := os.Remove(filepath.Join(repo, ProfileDir, ProfileFile)); rmErr != nil {
					t.Fatal(rmErr)
				}
				a, err2 = Assemble(Options{StoryDir: repo, NoUserProfile: true, Getenv: noEnv})
			})
			if err == nil || strings.Contains(err.Error(), "version") {
				t.Errorf("Assemble with the profile linked out: %v, want it refused unread", err)
			}
			if slices.Contains(files, filepath.Join(repo, ProfileDir, ProfileFile)) {
				t.Errorf("WatchFiles lists the repository's profile a link leads out")
			}
			if len(seen) > 0 {
				t.Errorf("opened outside the checkout: %v", seen)
			}
			for _, f := range files {
				if strings.HasPrefix(f, plugins+string(filepath.Separator)) && f != real && f != filepath.Join(plugins, "pipe", ManifestFile) {
					t.Errorf("WatchFiles lists %s, which discovery does not read", f)
				}
			}
			if !linkPlugins && !slices.Contains(files, real) {
				t.Errorf("WatchFiles lost the real manifest: %v", files)
			}
			if err2 != nil {
				t.Fatal(err2)
			}
			for _, p := range a.Plugins {
				if strings.Contains(p.ID, "CANARY") {
					t.Fatalf("a manifest outside the checkout was read: %q", p.ID)
				}
			}
		})
	}
}
