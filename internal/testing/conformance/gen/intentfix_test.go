package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// The intentfix stories load, the same seed writes the same bytes, every
// key and form the kind promises is drawn, and the static harness runs the
// fixtures of each story whose files are well formed: most fixtures are
// routed (a fixture whose recording misses every input tests nothing), and
// no report holds Go runtime text.
func TestIntentFixStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 40
	dir := writeSeeded(t, writeIntentFix, n, 600000, "000/app.yaml", "001/app.yaml", "002/app.yaml")
	again := t.TempDir() // and every other file of the first stories
	if err := writeIntentFix(again, 3, 600000); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(again, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(again, p)
		a, _ := os.ReadFile(filepath.Join(dir, rel))
		b, _ := os.ReadFile(p)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: seed 600000 wrote different bytes twice", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	assertDrawn(t, dir, []string{
		// recording and flags
		"kind: recording", "clarify: true", "--only", "--runs", "--intents", "--recording", "--baseline", "--update-baseline", "--fail-regression-at",
		// documents and fixtures
		"test_kind: intents", "test_kind: flows", "defaults:", "temperature:", "min_pass_rate:", "runs:", "expect_failure:", "any_of:",
		"expect_fallthrough: true", "slots:", "inputs:", "INTENT_NOT_ALLOWED_IN_STATE", "MISSING_SLOTS", "INVALID_SLOT_VALUE",
		"UNKNOWN_INTENT", "NO_SUCH_CODE", "- clarify", "\"0.5\"", "state: c.zz", "p#p.ra.a1|p.rb.",
		// the story
		"required: true", "values:", "checkpoint_intents:", "type: parallel", "'*':",
	})
	ran, routed, inputs := 0, 0, 0
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		ld, err := flowtest.NewRunner(flowtest.Options{}).Story(filepath.Join(d, "app.yaml"))
		if err != nil || ld.Machine == nil {
			t.Fatalf("%s: the story does not load: %v %v", d, err, ld.CompileErr)
		}
		args := map[string]string{}
		if b, err := os.ReadFile(filepath.Join(d, "args")); err == nil {
			fs := strings.Fields(string(b))
			for j := 0; j+1 < len(fs); j++ {
				args[fs[j]] = fs[j+1]
			}
		}
		glob := filepath.Join(d, "intents", "*.yaml")
		if g, ok := args["--intents"]; ok {
			glob = filepath.Join(d, g)
		}
		suites, err := flowtest.LoadIntents("", glob, "")
		if err != nil {
			if errors.Is(err, flowtest.ErrNoIntentFixtures) || !strings.Contains(err.Error(), d) {
				t.Errorf("%s: %v", d, err)
			}
			continue // a malformed file: refused, naming it
		}
		rec := filepath.Join(d, "recording.yaml")
		if r, ok := args["--recording"]; ok {
			rec = filepath.Join(d, r)
		}
		h, err := flowtest.NewStaticHarness("", rec)
		if err != nil {
			continue // a clarify entry: refused as upstream does
		}
		rep := flowtest.RunIntents(context.Background(), suites, flowtest.IntentOptions{Harness: h, Machine: ld.Machine, Jobs: 1})
		ran++
		js, err := flowtest.MarshalIntentReport(rep)
		if err != nil {
			t.Fatal(err)
		}
		if s := string(js); strings.Contains(s, "interface {}") || strings.Contains(s, "panic") {
			t.Errorf("%s: Go runtime text in the report", d)
		}
		for _, f := range rep.Fixtures {
			for _, in := range f.Inputs {
				inputs++
				if in.Runs > 0 {
					routed++
				}
			}
		}
	}
	t.Logf("%d of %d stories ran, %d of %d inputs routed", ran, n, routed, inputs)
	if ran*10 < n*7 || routed*2 < inputs {
		t.Errorf("%d of %d stories ran, %d of %d inputs routed: the draw tests too little", ran, n, routed, inputs)
	}
}
