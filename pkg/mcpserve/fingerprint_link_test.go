package mcpserve

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"kitsoki/internal/testing/mcpstory"
	"kitsoki/internal/testing/opened"
	"kitsoki/internal/testing/storytest"
)

// The fingerprint that tells mcp serve to reload reads the story's files
// as the loader does, through the project root: a story file, an included
// file or a schema that is (or becomes) a symlink leading out of the
// project is not opened, the secret it leads to never read. It read each
// listed path with every link followed.
func TestFingerprintReadsNothingOutsideTheProject(t *testing.T) {
	ep := upstream(t)
	for _, c := range []struct {
		name string
		git  bool // the link leads into the project's .git, not out of it
	}{{"app.yaml", false}, {"part.yaml", false}, {"schemas/verdict.json", false}, {"part.yaml", true}} {
		name := c.name
		t.Run(fmt.Sprintf("%s git=%v", name, c.git), func(t *testing.T) {
			root, dir := writeStory(t, storyYAML(ep)+"include: [\"part.yaml\"]\n")
			storytest.WriteFile(t, filepath.Join(dir, "part.yaml"), "world:\n  seen: {type: string, default: x}\n")
			secret := filepath.Join(root, "secret.yaml")
			if c.git {
				secret = filepath.Join(dir, ".git", "config")
			}
			storytest.WriteFile(t, secret, "hunter2: 1\n")
			link := func() {
				p := filepath.Join(dir, name)
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(secret, p); err != nil {
					t.Fatal(err)
				}
			}
			if name == "app.yaml" { // a story that never loads: only its manifest is listed
				link()
				var err error
				if got := opened.During(t, []string{secret}, func() { _, err = New(Options{StoryPath: dir}) }); err == nil || slices.Contains(got, secret) {
					t.Fatalf("err %v; opened %v, want a refusal that opens nothing outside the project", err, got)
				}
				return
			}
			s := newServer(t, dir)
			if len(s.Current().Tools) == 0 {
				t.Fatalf("no tools: %s", s.Current().Err)
			}
			link()
			if got := opened.During(t, []string{secret}, func() { _ = s.Refresh() }); slices.Contains(got, secret) {
				t.Fatalf("refresh opened %v, want nothing outside the project", got)
			}
			if len(s.Current().Tools) != 0 {
				t.Errorf("the story still serves %d tools with %s leading out of the project", len(s.Current().Tools), name)
			}
		})
	}
}

// A "../" in a path the story writes (an include, an import's source, a
// call site's schema) opens nothing outside the project either, served or
// refused.
func TestFingerprintFollowsNoDotDot(t *testing.T) {
	ep := upstream(t)
	for name, extra := range map[string]struct{ app, schema string }{
		"include": {app: "include: [\"../secret.yaml\"]\n"},
		"import":  {app: "imports:\n  child: {source: ../secret.yaml}\n"},
		"schema":  {schema: "schemas/../../secret.yaml"},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "story")
			storytest.WriteFile(t, filepath.Join(dir, ".kitsoki", "keep"), "")
			app := storyYAML(ep) + extra.app
			if extra.schema != "" {
				app = mcpstory.App("mcpstory", mcpstory.Call{Alias: "agent.remote", Endpoint: ep, Host: "host.agent.decide", Prompt: "judge", Schema: extra.schema})
			}
			storytest.WriteFile(t, filepath.Join(dir, "app.yaml"), app)
			storytest.WriteFile(t, filepath.Join(dir, "schemas", "verdict.json"), verdictSchema)
			secret := filepath.Join(root, "secret.yaml")
			storytest.WriteFile(t, secret, "hunter2: 1\n")
			got := opened.During(t, []string{secret}, func() {
				if s, err := New(Options{StoryPath: dir}); err == nil {
					_ = s.Refresh()
					s.Close()
				}
			})
			if slices.Contains(got, secret) {
				t.Fatalf("opened %v, want nothing outside the project", got)
			}
		})
	}
}
