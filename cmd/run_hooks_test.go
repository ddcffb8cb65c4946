package cmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestRunWithPluginHooks: a real external hook process is called at
// run/start and run/end (observational: its halt stops nothing) and every
// outcome is in the trace; --profile can disable it.
func TestRunWithPluginHooks(t *testing.T) {
	hook := buildTestBinary(t, "kitsoki/internal/testing/hookplugins/testhook")
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": `app: { id: hooked, version: 0.1.0 }
hosts: [host.run]
world:
  out: { type: string, default: "" }
root: start
states:
  start:
    on_enter:
      - invoke: host.run
        with: { cmd: "echo ran" }
        bind: { out: stdout }
    terminal: true
`,
		".kitsoki/plugins/policy/manifest.yaml": fmt.Sprintf(`id: policy
version: 1.0.0
summary: halts everything it sees
hooks:
  - point: run/start
    on_error: veto
  - point: run/end
entry:
  command: %q
  args: [veto]
  timeout_ms: 60000
`, hook),
	})
	tracePath := filepath.Join(t.TempDir(), "run.jsonl")
	var out, errb bytes.Buffer
	code := Run([]string{"run", filepath.Join(root, "story"), "--trace", tracePath}, &out, &errb)
	if code != 0 || !strings.Contains(out.String(), "terminal start") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	tr, err := os.ReadFile(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(tr), `"kind":"hook.halted"`); n != 2 {
		t.Fatalf("hook.halted events = %d, want 2 (run/start, run/end):\n%s", n, tr)
	}
	if !strings.Contains(string(tr), `policy says no`) || !strings.Contains(string(tr), `"point":"run/end"`) {
		t.Fatalf("trace:\n%s", tr)
	}

	// --profile disabling the external plugin: no hook runs.
	prof := filepath.Join(root, "off.yaml")
	storytest.WriteTree(t, root, map[string]string{"off.yaml": "disable: [policy]\n"})
	out.Reset()
	tr2 := filepath.Join(t.TempDir(), "r2.jsonl")
	if code := Run([]string{"run", filepath.Join(root, "story"), "--profile", prof, "--trace", tr2}, &out, &errb); code != 0 {
		t.Fatalf("with the plugin disabled: exit %d\n%s%s", code, out.String(), errb.String())
	}
	if b, _ := os.ReadFile(tr2); strings.Contains(string(b), "hook.") {
		t.Fatalf("a disabled plugin's hook ran:\n%s", b)
	}

	// A malformed profile fails before anything runs, with its position.
	errb.Reset()
	storytest.WriteTree(t, root, map[string]string{"bad.yaml": "disable: nope\n"})
	if code := Run([]string{"run", filepath.Join(root, "story"), "--profile", filepath.Join(root, "bad.yaml"), "--trace", filepath.Join(t.TempDir(), "r3.jsonl")}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "bad.yaml:1:10") {
		t.Fatalf("malformed profile: exit %d\n%s", code, errb.String())
	}
}

// TestRunHostPreCallVeto: a real external hook process refuses host.run at
// host/pre-call; the effect takes its on_error path and the command never
// runs. Disabling host.run in the profile does the same through its gate.
func TestRunHostPreCallVeto(t *testing.T) {
	hook := buildTestBinary(t, "kitsoki/internal/testing/hookplugins/testhook")
	root := t.TempDir()
	marker := filepath.Join(root, "ran")
	storytest.WriteTree(t, root, map[string]string{
		"story/app.yaml": `app: { id: hostveto, version: 0.1.0 }
hosts: [host.run]
root: start
states:
  start:
    on_enter:
      - invoke: host.run
        with: { cmd: "touch ` + marker + `" }
        on_error: refused
    terminal: true
  refused:
    terminal: true
`,
		"ext/plugins/policy/manifest.yaml": fmt.Sprintf("id: policy\nhooks: [{point: host/pre-call, on_error: veto}]\nentry: {command: %q, args: [veto]}\n", hook),
		"ext/plugins.yaml":                 "",
		"gate.yaml":                        "disable: [host.run]\n",
	})
	for _, prof := range []string{filepath.Join(root, "ext", "plugins.yaml"), filepath.Join(root, "gate.yaml")} {
		tracePath := filepath.Join(t.TempDir(), "run.jsonl")
		var out, errb bytes.Buffer
		code := Run([]string{"run", filepath.Join(root, "story"), "--profile", prof, "--trace", tracePath}, &out, &errb)
		if code != 0 || !strings.Contains(out.String(), "terminal refused") {
			t.Fatalf("%s: exit %d\n%s%s", prof, code, out.String(), errb.String())
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%s: the refused command ran", prof)
		}
		tr, _ := os.ReadFile(tracePath)
		if !strings.Contains(string(tr), `"kind":"hook.halted"`) || !strings.Contains(string(tr), `"point":"host/pre-call"`) {
			t.Fatalf("%s: trace:\n%s", prof, tr)
		}
	}
}
