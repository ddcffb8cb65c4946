package testrun

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"kitsoki/pkg/flowtest"
)

// TestLoad: stories that load pass; one that does not is a LoadError
// naming it; an operator profile the assembly refuses is a LoadError
// marked Assembly.
func TestLoad(t *testing.T) {
	good := filepath.Join(t.TempDir(), "app.yaml")
	src := "app: {id: t, version: 0.1.0}\nintents: {go: {description: go}}\nroot: a\nstates:\n  a: {on: {go: [{target: b}]}}\n  b: {terminal: true}\n"
	if err := os.WriteFile(good, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []*flowtest.File{{Story: good}}
	var w bytes.Buffer
	if err := Load(&w, flowtest.NewRunner(flowtest.Options{}), files); err != nil || w.Len() != 0 {
		t.Fatalf("a story that loads: %v, wrote %q", err, w.String())
	}

	bad := filepath.Join(t.TempDir(), "app.yaml")
	if err := os.WriteFile(bad, []byte("app: {id: t, version: 0.1.0}\nroot: nowhere\nstates: {a: {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Load(&w, flowtest.NewRunner(flowtest.Options{}), append(files, &flowtest.File{Story: bad}))
	le, ok := errors.AsType[*LoadError](err)
	if !ok || le.App != bad || le.Assembly {
		t.Errorf("a story that does not load: %#v, want a LoadError for %s, not Assembly", err, bad)
	}

	profile := filepath.Join(t.TempDir(), "plugins.yaml")
	if err := os.WriteFile(profile, []byte("plugins: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = Load(&w, flowtest.NewRunner(flowtest.Options{Profile: profile}), files)
	if le, ok := errors.AsType[*LoadError](err); !ok || le.App != good || !le.Assembly {
		t.Errorf("a malformed profile: %#v, want a LoadError for %s marked Assembly", err, good)
	}
}
