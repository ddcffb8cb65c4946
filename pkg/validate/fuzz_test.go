package validate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// FuzzValidate: a story and a flow fixture beside it, as a repository
// under review holds them, through validate with the fixture lint (the
// lints that read a fixture against its story: states, clock, world,
// rejections). It never panics, and every diagnostic names one of the two
// files (or none) and prints.
func FuzzValidate(f *testing.F) {
	for _, rule := range []string{"flow-nan-duration", "flow-wrong-state", "flow-rejected", "flow-world-known", "flow-guard-error", "flow-value"} {
		app, err1 := os.ReadFile(filepath.Join("testdata", rule, StoryFile))
		flow, err2 := os.ReadFile(filepath.Join("testdata", rule, "flows", "case.yaml"))
		if err1 != nil || err2 != nil {
			f.Fatalf("seed %s: %v %v", rule, err1, err2)
		}
		f.Add(app, flow)
	}
	f.Fuzz(func(t *testing.T, app, flow []byte) {
		dir := t.TempDir()
		appPath := filepath.Join(dir, StoryFile)
		if err := os.WriteFile(appPath, app, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(filepath.Join(dir, "flows"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "flows", "case.yaml"), flow, 0o600); err != nil {
			t.Fatal(err)
		}
		res := Run([]string{appPath}, Options{Story: story.Options{LookupEnv: noEnv}, Flows: true})
		ds := res.Diagnostics
		for _, d := range ds {
			if d.File != "" && !strings.HasPrefix(d.File, dir) && !strings.HasPrefix(d.File, "flows") && d.File != StoryFile {
				t.Fatalf("diagnostic names a file outside the story: %s", d)
			}
			if d.Message == "" || d.Rule == "" {
				t.Fatalf("diagnostic without message or rule: %+v", d)
			}
		}
		var b bytes.Buffer
		if err := diag.WriteHuman(&b, ds, diag.HumanOptions{Snippet: true, Source: res.Source}); err != nil {
			t.Fatal(err)
		}
	})
}
