package engine

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"kitsoki/pkg/host"
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
	f.Add([]byte("app: {id: x}\nworld:\n  z: {type: int, default: 0}\nroot: a\nstates:\n  a:\n    on:\n      go:\n        - target: a\n          effects:\n            - set: { q: \"{{ 1 / world.z }}\", u: \"{{ upper(world.nope) }}\", m: { k: \"{{ int(world.nope) }}\" } }\n"), "go")
	agents := AgentCallerFunc(func(ctx context.Context, c AgentCall) (*AgentAnswer, error) {
		return answerOf(`{"decision":"accept","answer":"x"}`), nil
	})
	f.Fuzz(func(t *testing.T, data []byte, intent string) {
		st, _ := story.LoadSource("fuzz.yaml", data, story.Options{AllowUnsetEnv: true})
		if st == nil {
			return
		}
		// no host handler at all: a fuzzer must not run commands or write
		// files, so Compile refuses every invoke but the agent verbs
		m, err := Compile(st, CompileOptions{Hosts: host.NewRegistry()})
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		res := RunSession(ctx, m, SessionOptions{Bootstrap: true, Options: Options{Agents: agents, NoSnapshot: true, Inputs: []Input{{Intent: intent}, {Intent: intent}}}})
		if res == nil || res.Outcome == "" {
			t.Fatal("no result")
		}
		if res.Err != nil && goRuntimeText.MatchString(res.Err.Error()) {
			t.Fatalf("a Go run-time text reaches the user: %v", res.Err)
		}
	})
}

// FuzzSession drives the probe stories (parallel states, timeouts,
// background jobs, gates) through arbitrary sequences of intents and clock
// advances on a virtual clock: no panic, no hang, and the state is always
// one the story can be in.
func FuzzSession(f *testing.F) {
	f.Add("p9", []byte("enter\nboth\nbonly\n+6m\nparent_go\nout"))
	f.Add("p4", []byte("bgok\n+2s\nlook\nback\nbgerr\n+2s"))
	f.Add("p3", []byte("go_w\n+6m\nstay\n+20m\nback\ngo_rel\n+2m"))
	f.Add("p5", []byte("go_loop\ngo_h\nback\ngo_pb"))
	f.Add("p3", []byte("go_w\n+2562047h47m16.854775807s\nstay\n+2562047h\n+1ns\nback\ngo_rel\n+2562047h"))
	f.Add("p4", []byte("bgok\n+2562047h\nbgok\n+2562047h\nbgerr\n+2562047h47m16.854775807s"))
	stubs := host.NewRegistry()
	for _, n := range []string{"host.slow", "host.slowfail", "host.bad", "host.a"} {
		stubs.Register(n, host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
			return host.Result{Data: map[string]any{"v": "x", "val": "y"}, Delay: time.Second}, nil
		}))
	}
	f.Fuzz(func(t *testing.T, probe string, script []byte) {
		switch probe {
		case "p9", "p4", "p3", "p5":
		default:
			return
		}
		m, err := Compile(loadStory(t, "probes/"+probe), CompileOptions{LateHandlers: true})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard: the clock is virtual
		defer cancel()
		s, err := Start(ctx, m, SessionOptions{Hosts: stubs, Clock: NewVirtualClock(time.Unix(0, 0))})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for i, line := range strings.Split(string(script), "\n") {
			if i > 40 {
				break
			}
			if d, ok := strings.CutPrefix(line, "+"); ok {
				dur, err := time.ParseDuration(d)
				if err != nil { // any length: the clock saturates at the end of time
					continue
				}
				if _, err := s.Advance(ctx, dur); err != nil {
					t.Fatal(err)
				}
			} else if _, err := s.Fire(ctx, Input{Intent: line}); err != nil {
				t.Fatal(err)
			}
			st := s.State()
			root, _, _ := strings.Cut(st, "#")
			if m.States[root] == nil && !strings.HasPrefix(st, "__exit__") {
				t.Fatalf("state %q is not a state of %s", st, probe)
			}
		}
	})
}

// goRuntimeText matches Go run-time texts that must never reach an author.
var goRuntimeText = regexp.MustCompile(`interface conversion|interface \{\}|reflect[.:]|%!|runtime error|invalid memory address|goroutine`)
