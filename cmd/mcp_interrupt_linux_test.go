//go:build linux

package cmd

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
)

// TestMCPServeSignalCancelsCallsUnderWay runs the real binary's mcp serve
// over stdio, calls a tool whose subprocess plugin never answers, and
// sends SIGINT (then, in a second server, SIGTERM) once the plugin has
// started: the server stops at once (not after the call's 10m timeout),
// exits 0 with one line naming the signal, and the plugin is gone.
func TestMCPServeSignalCancelsCallsUnderWay(t *testing.T) {
	bin := buildKitsokiUnlessShort(t)
	for _, tc := range interruptSignals {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			pidFile := filepath.Join(t.TempDir(), "plugin.pid")
			storytest.WriteTree(t, dir, map[string]string{"app.yaml": slowPluginApp(pidThenWait(pidFile))})
			cmd := exec.Command(bin, "mcp", "serve", dir, "--trace", filepath.Join(t.TempDir(), "t.jsonl"))
			in, _ := cmd.StdinPipe()
			outPipe, _ := cmd.StdoutPipe()
			var stderr storytest.SyncBuffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { _ = cmd.Wait(); close(exited) }()
			t.Cleanup(func() { cmd.Process.Kill(); <-exited })
			out := bufio.NewScanner(outPipe)
			send := func(msg string) {
				if _, err := in.Write([]byte(msg + "\n")); err != nil {
					t.Fatal(err)
				}
			}
			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			if !out.Scan() || !json.Valid(out.Bytes()) {
				t.Fatalf("no initialize answer: %s\n%s", out.Text(), stderr.String())
			}
			send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"kitsoki_agent_slow_ask","arguments":{"prompt":"hi"}}}`)
			p := &process{cmd: cmd, exited: exited}
			pid := p.waitForPID(t, pidFile)
			t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
			if code := p.stop(t, tc.sig); code != 0 {
				t.Errorf("exit %d, want 0 (a clean shutdown)\n%s", code, stderr.String())
			}
			want := "kitsoki mcp serve: interrupted by " + tc.name + ": stopped, calls under way cancelled\n"
			if !strings.HasSuffix(stderr.String(), want) {
				t.Errorf("stderr does not end on %q:\n%s", want, stderr.String())
			}
			if !waitFor(func() bool { return !alive(pid) }, time.Minute) {
				t.Errorf("plugin %d outlived mcp serve", pid)
			}
		})
	}
}
