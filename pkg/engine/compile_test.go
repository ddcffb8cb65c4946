package engine

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/host"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

func TestRefusedConstructsByNameAndPosition(t *testing.T) {
	st := loadStory(t, "refused")
	_, err := Compile(st, CompileOptions{Hosts: host.NewRegistry()})
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *CompileError", err)
	}
	msg := err.Error()
	for _, want := range []string{
		`no handler for "host.inbox.add"`,
		`--host-cassette FILE`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("refusal lacks %q:\n%s", want, msg)
		}
	}
	for _, gone := range []string{"parallel states are not executed", "background: true"} {
		if strings.Contains(msg, gone) {
			t.Errorf("refusal still has %q:\n%s", gone, msg)
		}
	}
	for _, p := range ce.Problems {
		if p.Pos.Line == 0 || !strings.HasSuffix(p.Pos.File, "app.yaml") {
			t.Errorf("problem without a position: %+v", p)
		}
	}
}

func TestHostReplayAllowsUnknownHandler(t *testing.T) {
	_, err := Compile(loadStory(t, "refused"), CompileOptions{Hosts: host.NewRegistry()})
	if err == nil || !strings.Contains(err.Error(), "host.inbox.add") {
		t.Fatalf("without a replay host.inbox.add must be refused: %v", err)
	}
	_, err = Compile(loadStory(t, "refused"), CompileOptions{HostReplay: &fakeReplay{handler: "host.inbox.add"}, Hosts: host.NewRegistry()})
	if err != nil && strings.Contains(err.Error(), "host.inbox.add") {
		t.Errorf("with a replay serving host.inbox.add it must not be refused: %v", err)
	}
}

func TestCompileNeverHalfRuns(t *testing.T) {
	// A refused story produces no machine at all.
	m, err := Compile(loadStory(t, "refused"), CompileOptions{Hosts: host.NewRegistry()})
	if m != nil || err == nil {
		t.Fatal("refused story compiled")
	}
}

// Phases are expanded by the loader into ordinary states: they run.
func TestPhasesCompile(t *testing.T) {
	if _, err := Compile(loadStory(t, "phased"), CompileOptions{}); err != nil {
		t.Fatalf("err = %v", err)
	}
}

// The gate decider, decider: llm and inline effects compile; on_exit (not
// in the format) is a warning with its position. Upstream refuses the
// story for its on_exit, so the load reports the lint-only on-exit error
// (validate fails; run and test go ahead) and nothing else blocks it.
func TestFormerlyRefusedKeysCompile(t *testing.T) {
	st, ds := lint.Load(filepath.Join("testdata", "unexecuted"), story.Options{})
	if st == nil || unrunnable(ds) || !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool {
		return d.Rule == story.RuleOnExit.ID && d.Severity == diag.Error && d.Line == 14
	}) {
		t.Fatalf("load: want the on-exit error at line 14 and nothing blocking: %v", ds)
	}
	m, err := Compile(st, CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Decider == nil || m.Decider.Agent != "gatekeeper" || m.Decider.Threshold != 0.8 {
		t.Errorf("decider = %+v", m.Decider)
	}
	if m.States["gate"].Decider != "llm" {
		t.Errorf("state decider = %q", m.States["gate"].Decider)
	}
	if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0].String(), `app.yaml:15:7: state "gate": on_exit:`) {
		t.Errorf("warnings = %v", m.Warnings)
	}
}
