//go:build unix

package plugin

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// chainFor assembles a story dir holding one external plugin.
func chainFor(t *testing.T, args []string, onError string, timeoutMS int, points ...Point) *Chain {
	t.Helper()
	root := t.TempDir()
	externalPlugin(t, root, "ext", args, onError, timeoutMS, points...)
	a := assemble(t, root)
	if !a.Enabled("ext") {
		t.Fatalf("external plugin not enabled: %+v %v", a.Plugins, a.Warnings)
	}
	c := a.NewChain()
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestExternalRewrite(t *testing.T) {
	c := chainFor(t, []string{"rewrite"}, onErrorContinue, 60000, pointPreDispatch)
	rec := &recorder{}
	out, halt, err := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "hello", "alias": "agent.claude"}, rec.emit)
	if err != nil || halt != nil {
		t.Fatal(err, halt)
	}
	if out["prompt"] != "hello [checked by testhook]" {
		t.Fatalf("prompt = %q", out["prompt"])
	}
	if rec.kinds() != "hook.rewrote:ext" {
		t.Fatalf("events %s", rec.kinds())
	}
}

func TestExternalVeto(t *testing.T) {
	c := chainFor(t, []string{"veto"}, onErrorContinue, 60000, pointPreDispatch)
	_, halt, err := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "hello"}, nil)
	if err != nil || halt == nil || halt.Plugin != "ext" || halt.Reason != "policy says no" {
		t.Fatalf("halt %+v err %v", halt, err)
	}
}

func TestExternalCrashFollowsOnError(t *testing.T) {
	c := chainFor(t, []string{"crash"}, onErrorContinue, 60000, pointPreDispatch)
	rec := &recorder{}
	out, halt, err := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "hello"}, rec.emit)
	if err != nil || halt != nil || out["prompt"] != "hello" {
		t.Fatalf("continue: out %v halt %v err %v", out, halt, err)
	}
	if rec.kinds() != "hook.failed:ext" || !strings.Contains(rec.events[0].Payload.Error, "testhook: boom") {
		t.Fatalf("events %s %+v", rec.kinds(), rec.events[0].Payload)
	}

	c = chainFor(t, []string{"crash"}, onErrorVeto, 60000, pointPreDispatch)
	rec = &recorder{}
	_, halt, err = c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "hello"}, rec.emit)
	if err != nil || halt == nil || !strings.Contains(halt.Reason, "exited before answering") {
		t.Fatalf("veto: halt %+v err %v", halt, err)
	}
	if rec.kinds() != "hook.failed:ext,hook.halted:ext" {
		t.Fatalf("events %s", rec.kinds())
	}
}

func TestExternalRespawnsOnceForADeadChild(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "crashed")
	c := chainFor(t, []string{"crash-once", marker}, onErrorVeto, 60000, pointPreDispatch)
	rec := &recorder{}
	_, halt, err := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "x"}, rec.emit)
	if err != nil || halt != nil || len(rec.events) != 0 {
		t.Fatalf("respawn did not recover: halt %+v err %v events %s", halt, err, rec.kinds())
	}
}

func TestExternalTimeout(t *testing.T) {
	c := chainFor(t, []string{"sleep"}, onErrorVeto, 200, pointPreDispatch)
	rec := &recorder{}
	_, halt, err := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "x"}, rec.emit)
	if err != nil || halt == nil || !strings.Contains(halt.Reason, "did not answer within 200ms") {
		t.Fatalf("halt %+v err %v", halt, err)
	}
	c = chainFor(t, []string{"sleep"}, onErrorContinue, 200, pointPreDispatch)
	out, halt, _ := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "x"}, nil)
	if halt != nil || out["prompt"] != "x" {
		t.Fatalf("continue after timeout: %v %v", out, halt)
	}
}

func TestExternalGarbageIsAFailure(t *testing.T) {
	c := chainFor(t, []string{"garbage"}, onErrorVeto, 60000, pointPreDispatch) // a hang guard: garbage comes at once
	_, halt, _ := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "x"}, nil)
	if halt == nil || !strings.Contains(halt.Reason, "not a JSON result") {
		t.Fatalf("halt %+v", halt)
	}
}

func TestExternalProcessReusedAndKilledOnClose(t *testing.T) {
	c := chainFor(t, []string{"pid"}, onErrorContinue, 60000, pointPreDispatch, pointHostPreCall)
	out1, _, _ := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "x"}, nil)
	out2, _, _ := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "x"}, nil)
	p1, p2 := out1["prompt"].(string), out2["prompt"].(string)
	pid1, pid2 := strings.Fields(p1)[0], strings.Fields(p2)[0]
	if pid1 != pid2 || !strings.HasSuffix(p2, "call=2") {
		t.Fatalf("process not reused: %q then %q", p1, p2)
	}
	pid, _ := strconv.Atoi(strings.TrimPrefix(pid1, "pid="))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute) // a hang guard: Close kills at once
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("hook process %d still alive after Close", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The hook protocol reads stdout as bufio.Scanner does: blank lines are
// skipped, and a last answer without its newline counts when the child
// exits (the next call starts a new one).
func TestExternalLooseLines(t *testing.T) {
	for mode, want := range map[string]string{"blank-lines": "after blank lines", "unterminated": "unterminated"} {
		c := chainFor(t, []string{mode}, onErrorVeto, 60000, pointPreDispatch)
		for range 2 {
			out, halt, err := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "x"}, nil)
			if err != nil || halt != nil || out["prompt"] != want {
				t.Fatalf("%s: out %v halt %+v err %v", mode, out, halt, err)
			}
		}
	}
}
