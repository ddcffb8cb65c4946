package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// loadErrors is every error diagnostic of loading and checking d's story.
func loadErrors(d string) string {
	_, ds := lint.Load(filepath.Join(d, "app.yaml"), story.Options{})
	var msgs []string
	for _, x := range ds {
		if x.Severity == diag.Error {
			msgs = append(msgs, x.Message)
		}
	}
	return strings.Join(msgs, "\n")
}

// The phase stories gen writes load here (those without a mistake) and
// their fixtures run with no Go runtime text, most of them passing (the
// walk phaseSim predicts is the one the engine takes); every phase
// construct is drawn; the same seed writes the same bytes.
func TestPhaseStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 30
	dir := writeSeeded(t, writePhase, n, 17, "000/app.yaml", "001/flows/f0.yaml")
	want := []string{"phase_templates:", "checkpoint_intents:", "cycle_budgets:", "on_enter:", "include:",
		"{{ phase.next.done }}", "{{ tpl.title }}", "required: true", "'{id}_{kind}'", "'{id}_inner'",
		"{{ world.n + {{ tpl.step }} }}", "when: '{{ tpl.gate }}'", "invoke: host.ok", "type: list", "type: bool",
		"expect_state:", "expect_world:", "expect_view_matches:", "expect_host_calls:", "description: own ", "description: global ", "done: '@exit:finished'", "target: kid", "kid__quit"}
	assertDrawn(t, dir, want)
	var files []*flowtest.File
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		if loadErrors(d) != "" {
			continue // a story with a load-time mistake (TestPhaseMistakes)
		}
		fs, ds, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil || len(ds) > 0 || len(fs) == 0 {
			t.Fatalf("%s: fixtures %d, diagnostics %v, error %v", d, len(fs), ds, err)
		}
		files = append(files, fs...)
	}
	if len(files) < n/2 {
		t.Fatalf("only %d fixtures of %d stories load", len(files), n)
	}
	passed := 0
	for _, r := range runClean(t, files, n/2) {
		if r.Passed() {
			passed++
		}
	}
	if passed*2 < len(files) {
		t.Errorf("%d of %d fixtures pass: phaseSim no longer predicts the walk", passed, len(files))
	}
}

// Each load-time mistake gen draws makes a story kitsoki refuses with the
// §9.3 message upstream gives (the collisions load: the name taken wins).
func TestPhaseMistakes(t *testing.T) {
	t.Parallel()
	wants := map[string]string{
		"missing-required": `missing required template parameter "must"`,
		"unknown-template": `phases.template "`,
		"no-templates":     "phases: declared but no phase_templates: present",
		"no-template-name": "phases.template: required",
		"bad-key-param":    `: unknown parameter "`,
		"empty-entry":      `: empty entry`,
		"second-phases":    "include: phases: block already declared",
		"dup-template":     `include: phase_template "leg" is already declared`,
		"dup-checkpoint":   `include: checkpoint_intent "approve" is already declared`,
		"collide-phases":   "",
		"collide-story":    "",
	}
	if len(wants) != len(phaseMistakes) {
		t.Fatalf("%d mistakes checked, gen draws %d", len(wants), len(phaseMistakes))
	}
	for _, mk := range phaseMistakes {
		t.Run(mk, func(t *testing.T) {
			g := newGen(5)
			sh := g.drawShape()
			sh.mistake = mk
			d := t.TempDir()
			if err := writeFiles(d, g.phaseStoryOf("m", sh)); err != nil {
				t.Fatal(err)
			}
			got := loadErrors(d)
			switch w := wants[mk]; {
			case w == "" && got != "":
				t.Errorf("refused: %s", got)
			case w != "" && !strings.Contains(got, w):
				t.Errorf("problems %q, want one holding %q", got, w)
			}
		})
	}
}

// loadErrDiff matches the existing engine's load error with one of ours
// (ours may add a hint), and names both when none matches.
func TestLoadErrDiff(t *testing.T) {
	t.Parallel()
	d := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(d, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("existing.log", `kitsoki test flows: load app "/x/app.yaml": /x/app.yaml: phases.graph["a"]: state name "{nope}": unknown parameter "nope"`+"\n")
	write("ours.log", "/x/app.yaml:3:4: error: root: missing [root]\n/x/app.yaml:9:7: error: phases.graph[\"a\"]: state name \"{nope}\": unknown parameter \"nope\" (declare it) [phases]\n")
	if got, both := loadErrDiff(d); got != "" || !both {
		t.Errorf("matching logs differ: %q, %v", got, both)
	}
	write("ours.log", "/x/app.yaml:3:4: error: root: missing [root]\n")
	if got, both := loadErrDiff(d); !both || !strings.Contains(got, "root: missing") || !strings.Contains(got, `unknown parameter "nope"`) {
		t.Errorf("different logs: %q", got)
	}
	write("ours.log", "ok    flows/f.yaml\n")
	if got, both := loadErrDiff(d); both {
		t.Errorf("ours loaded it, yet both refused: %q", got)
	}
}
