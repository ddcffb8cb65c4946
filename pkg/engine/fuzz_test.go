package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"kitsoki/pkg/story"
)

// FuzzRun loads arbitrary story bytes and runs whatever compiles, with a
// fake agent and no host.run (a fuzzer must not execute commands): the
// engine must never panic or hang on any story the loader accepts.
func FuzzRun(f *testing.F) {
	for _, name := range []string{"transitions", "inputs", "emit", "agent", "effects"} {
		if b, err := os.ReadFile(filepath.Join("testdata", name, "app.yaml")); err == nil {
			f.Add(b, "next")
		}
	}
	f.Add([]byte("app: {id: x}\nroot: a\nstates:\n  a:\n    on_enter:\n      - emit_intent: go\n    on:\n      go: [ { target: a } ]\n"), "go")
	agents := AgentCallerFunc(func(ctx context.Context, c AgentCall) (*AgentAnswer, error) {
		return &AgentAnswer{Submission: []byte(`{"decision":"accept","answer":"x"}`)}, nil
	})
	f.Fuzz(func(t *testing.T, data []byte, intent string) {
		st, _ := story.LoadBytes("fuzz.yaml", data, story.Options{AllowUnsetEnv: true})
		if st == nil {
			return
		}
		m, err := Compile(st, CompileOptions{})
		if err != nil || m.Handled["host.run"] {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		res := Run(ctx, m, Options{Agents: agents, NoSnapshot: true, Inputs: []Input{{Intent: intent}, {Intent: intent}}})
		if res == nil || res.Outcome == "" {
			t.Fatal("no result")
		}
	})
}
