package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestHostRunModes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses sh")
	}
	dir := t.TempDir()
	ctx := context.Background()

	// shell mode: no args
	res, err := hostRun(ctx, map[string]any{"cmd": "echo one; echo two >&2; exit 3"})
	if err != nil {
		t.Fatal(err)
	}
	if res["stdout"] != "one" || res["stderr"] != "two" || res["exit_code"] != 3 || res["ok"] != false {
		t.Errorf("shell result = %v", res)
	}
	if _, ok := res["stdout_json"]; ok {
		t.Error("stdout_json for non-JSON output")
	}

	// argv mode: args are not shell-interpreted
	res, err = hostRun(ctx, map[string]any{"cmd": "echo", "args": []any{"$HOME", "a b", 7}})
	if err != nil {
		t.Fatal(err)
	}
	if res["stdout"] != "$HOME a b 7" || res["ok"] != true {
		t.Errorf("argv result = %v", res)
	}

	// cwd, env, stdout_json
	res, err = hostRun(ctx, map[string]any{"cmd": `printf '{"dir":"%s","v":"%s"}' "$(basename "$PWD")" "$KV"`, "cwd": dir,
		"env": map[string]any{"KV": "x1"}})
	if err != nil {
		t.Fatal(err)
	}
	js, _ := res["stdout_json"].(map[string]any)
	if js["dir"] != filepath.Base(dir) || js["v"] != "x1" {
		t.Errorf("stdout_json = %v (stdout %q)", js, res["stdout"])
	}

	// fail_on_error turns a non-zero exit into an error, keeping the result
	res, err = hostRun(ctx, map[string]any{"cmd": "exit 2", "fail_on_error": true})
	if err == nil || !strings.Contains(err.Error(), "status 2") || res["exit_code"] != 2 {
		t.Errorf("fail_on_error: res %v err %v", res, err)
	}

	// stdin and timeout
	res, err = hostRun(ctx, map[string]any{"cmd": "tr a-z A-Z", "stdin": "shout"})
	if err != nil || res["stdout"] != "SHOUT" {
		t.Errorf("stdin: %v %v", res, err)
	}
	if _, err := hostRun(ctx, map[string]any{"cmd": "sleep 20", "timeout": "100ms"}); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Errorf("timeout: %v", err)
	}
	if _, err := hostRun(ctx, map[string]any{"cmd": "true", "timeout": "soon"}); err == nil || !strings.Contains(err.Error(), "positive Go duration") {
		t.Errorf("bad timeout: %v", err)
	}

	// usage errors name the key
	if _, err := hostRun(ctx, map[string]any{}); err == nil || !strings.Contains(err.Error(), "with.cmd is required") {
		t.Errorf("missing cmd: %v", err)
	}
	if _, err := hostRun(ctx, map[string]any{"cmd": "true", "args": "nope"}); err == nil || !strings.Contains(err.Error(), "with.args must be a list") {
		t.Errorf("bad args: %v", err)
	}
	if _, err := hostRun(ctx, map[string]any{"cmd": "definitely-not-a-program-kitsoki", "args": []any{}}); err == nil {
		t.Error("missing program did not fail")
	}
}

// TestHostRunCancelKillsProcessTree checks that a cancelled run stops the
// command and its children (sh -c spawns a sleeping grandchild).
func TestHostRunCancelKillsProcessTree(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses sh")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := hostRun(ctx, map[string]any{"cmd": "sleep 30 & echo $! > " + pidFile + "; wait"})
		done <- err
	}()
	var pid string
	for i := 0; i < 200 && pid == ""; i++ {
		time.Sleep(10 * time.Millisecond)
		b, _ := os.ReadFile(pidFile)
		pid = strings.TrimSpace(string(b))
	}
	if pid == "" {
		t.Fatal("child never started")
	}
	cancel()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "stopped") {
			t.Errorf("err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("hostRun did not return after cancel")
	}
	// the grandchild must be gone (kill -0 fails)
	for i := 0; i < 100; i++ {
		if exec.Command("kill", "-0", pid).Run() != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("grandchild %s survived the cancel", pid)
}

func TestRunInterruptedStopsCleanly(t *testing.T) {
	m := compileStory(t, "effects")
	m.States["start"].OnEnter[0] = &Effect{Kind: kindInvoke, Invoke: "host.run", With: map[string]any{"cmd": "sleep 30"}, owner: m.States["start"]}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	sink := &recSink{}
	start := time.Now()
	res := Run(ctx, m, Options{Sink: sink})
	if res.Outcome != OutcomeFailed || !strings.Contains(res.Err.Error(), "interrupted") {
		t.Fatalf("outcome %s err %v", res.Outcome, res.Err)
	}
	if time.Since(start) > 10*time.Second {
		t.Error("run did not stop promptly")
	}
	if len(sink.kinds(KindMachineError)) != 1 {
		t.Error("no machine.error event recorded for the interrupted run")
	}
}
