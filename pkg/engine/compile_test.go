package engine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRefusedConstructsByNameAndPosition(t *testing.T) {
	st := loadStory(t, "refused")
	_, err := Compile(st, CompileOptions{})
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *CompileError", err)
	}
	msg := err.Error()
	for _, want := range []string{
		`imports: "kid"`,
		`parallel states are not executed`,
		`background: true`,
		`no handler for "host.inbox.add"`,
		`--host-cassette FILE`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("refusal lacks %q:\n%s", want, msg)
		}
	}
	for _, p := range ce.Problems {
		if p.Pos.Line == 0 || !strings.HasSuffix(p.Pos.File, "app.yaml") {
			t.Errorf("problem without a position: %+v", p)
		}
	}
}

func TestHostCassetteAllowsUnknownHandler(t *testing.T) {
	dir := t.TempDir()
	cas := filepath.Join(dir, "c.yaml")
	os.WriteFile(cas, []byte("kind: host_cassette\nepisodes:\n  - id: inbox\n    match: { handler: host.inbox.add }\n    response: { data: { ok: true } }\n"), 0o644)
	hc, err := LoadHostCassette(cas)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(loadStory(t, "refused"), CompileOptions{HostCassette: hc})
	if err == nil || strings.Contains(err.Error(), "host.inbox.add") {
		t.Errorf("with a cassette serving host.inbox.add it must not be refused: %v", err)
	}
}

func TestCompileNeverHalfRuns(t *testing.T) {
	// A refused story produces no machine at all.
	m, err := Compile(loadStory(t, "refused"), CompileOptions{})
	if m != nil || err == nil {
		t.Fatal("refused story compiled")
	}
}

func TestPhasesRefused(t *testing.T) {
	_, err := Compile(loadStory(t, "phased"), CompileOptions{})
	if err == nil || !strings.Contains(err.Error(), "phases: kitsoki run does not execute phase graphs") || !strings.Contains(err.Error(), "app.yaml:") {
		t.Fatalf("err = %v", err)
	}
}

// Keys the engine would otherwise ignore are refused by name and position:
// the gate decider (top level and decider: llm), on_exit and inline
// effects: outside on_complete.
func TestRefusedIgnoredKeys(t *testing.T) {
	_, err := Compile(loadStory(t, "unexecuted"), CompileOptions{})
	var ce *CompileError
	if !errors.As(err, &ce) || len(ce.Problems) != 4 {
		t.Fatalf("err = %v", err)
	}
	for i, want := range []string{`app.yaml:5:1: decider: kitsoki run does not execute the engine-driven gate decider`,
		`app.yaml:13:14: state "gate": decider: llm:`, `app.yaml:15:7: state "gate": on_exit:`,
		`app.yaml:20:15: gate on.go[0]: effects: inline effects only run inside on_complete`} {
		if got := ce.Problems[i].String(); !strings.Contains(got, want) {
			t.Errorf("problem %d = %s, want %s", i, got, want)
		}
	}
}
