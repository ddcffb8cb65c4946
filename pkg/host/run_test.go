package host

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
)

func runH() Handler { return runHandler{} }

// TestHostRunReferenceExamples checks the p7 probe values of
// story-runtime.md §2.8.
func TestHostRunReferenceExamples(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a POSIX shell")
	}
	env := Env{WorkDir: t.TempDir()}
	d := mustOK(t, runH(), env, map[string]any{"cmd": `echo hello; echo '{"a": 1}'`})
	if d["stdout"] != "hello\n{\"a\": 1}\n" || d["exit_code"] != 0 || d["ok"] != true {
		t.Errorf("echo: %v", d)
	}
	if js, _ := d["stdout_json"].(map[string]any); js["a"] != 1.0 { // float64, as upstream decodes it
		t.Errorf("stdout_json = %#v", d["stdout_json"])
	}

	// argv mode, a computed int element (an int, or a negative YAML
	// integer's int64): its decimal text; a YAML whole number that is not
	// negative (a uint64) is refused, as upstream (conformance
	// run-int-uint64).
	for _, n := range []any{3, int64(3)} {
		d = mustOK(t, runH(), env, map[string]any{"cmd": "printf", "args": []any{"%s|%s", "x y", n}})
		if d["stdout"] != "x y|3" {
			t.Errorf("argv %T: %q", n, d["stdout"])
		}
	}
	for _, n := range []any{uint64(3), uint64(1 << 63)} {
		res, err := call(t, runH(), env, map[string]any{"cmd": "printf", "args": []any{"%s|%s", "x y", n}})
		if err != nil || res.Error != "host.run: args[2]: unsupported type uint64" || res.Data != nil {
			t.Errorf("argv %d: %+v, %v", n, res, err)
		}
	}

	// fail_on_error: the error keeps the data.
	res, err := call(t, runH(), env, map[string]any{"cmd": "echo oops; exit 4", "fail_on_error": true})
	if err != nil || res.Error != "host.run: command exited 4" || res.Data["exit_code"] != 4 || res.Data["stdout"] != "oops\n" || res.Data["ok"] != false {
		t.Errorf("fail_on_error: %+v %v", res, err)
	}
	// without it a non-zero exit is a normal result.
	res, err = call(t, runH(), env, map[string]any{"cmd": "exit 2"})
	if err != nil || res.Error != "" || res.Data["exit_code"] != 2 || res.Data["ok"] != false || res.Data["stdout"] != "" {
		t.Errorf("exit 2: %+v %v", res, err)
	}
	// missing cmd
	res, _ = call(t, runH(), env, map[string]any{})
	if res.Error != "host.run: cmd argument is required" {
		t.Errorf("missing cmd: %+v", res)
	}
	// an unsupported args element is a domain error naming its index.
	res, _ = call(t, runH(), env, map[string]any{"cmd": "echo", "args": []any{"a", struct{}{}}})
	if res.Error != "host.run: args[1]: unsupported type struct {}" {
		t.Errorf("bad element: %q", res.Error)
	}
	// exec failure in argv mode is an infra error.
	if _, err := call(t, runH(), env, map[string]any{"cmd": "definitely-not-a-program-kitsoki", "args": []any{}}); err == nil {
		t.Error("missing program: no infra error")
	}
}

func TestHostRunCombinedOutputAndModes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a POSIX shell")
	}
	dir := t.TempDir()
	env := Env{WorkDir: dir}
	// stdout and stderr interleave into stdout.
	d := mustOK(t, runH(), env, map[string]any{"cmd": "echo one; echo two >&2; echo three"})
	if d["stdout"] != "one\ntwo\nthree\n" {
		t.Errorf("combined: %q", d["stdout"])
	}
	if _, ok := d["stderr"]; ok {
		t.Error("a stderr key: upstream has none (host_error would gain one)")
	}
	// argv mode: no shell interpretation.
	d = mustOK(t, runH(), env, map[string]any{"cmd": "echo", "args": []any{"$HOME", "a b", nil, true, 1.5, map[string]any{"k": "v"}, []any{1}}})
	if d["stdout"] != "$HOME a b  true 1.5 {\"k\":\"v\"} [1]\n" {
		t.Errorf("argv: %q", d["stdout"])
	}
	// cwd (relative to the working directory), env, stdin, bash.
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	d = mustOK(t, runH(), env, map[string]any{"cmd": `printf '{"dir":"%s","v":"%s"}' "$(basename "$PWD")" "$KV"`, "cwd": "sub", "env": map[string]any{"KV": "x1"}})
	if js, _ := d["stdout_json"].(map[string]any); js["dir"] != "sub" || js["v"] != "x1" {
		t.Errorf("cwd/env: %v", d)
	}
	d = mustOK(t, runH(), env, map[string]any{"cmd": "tr a-z A-Z", "stdin": "shout"})
	if d["stdout"] != "SHOUT" {
		t.Errorf("stdin: %q", d["stdout"])
	}
	if _, err := exec.LookPath("bash"); err == nil {
		d = mustOK(t, runH(), env, map[string]any{"cmd": `[[ -n "$BASH_VERSION" ]] && echo bash`})
		if d["stdout"] != "bash\n" {
			t.Errorf("not run by bash: %q", d["stdout"])
		}
	}
	// a cwd that cannot be entered is an infra error, as upstream's exec
	// failure (its view shows it: conformance host-args-typed)
	_, err := call(t, runH(), env, map[string]any{"cmd": "true", "cwd": "nope"})
	if err == nil || err.Error() != "host.run: exec: chdir nope: no such file or directory" {
		t.Errorf("bad cwd: %v", err)
	}
	// a cwd that is a file fails as the existing engine's exec fails: at
	// fork/exec of the program, not at the stat.
	storytest.WriteFile(t, filepath.Join(env.WorkDir, "afile"), "x")
	_, err = call(t, runH(), env, map[string]any{"cmd": "true", "cwd": "afile"})
	if err == nil || !strings.HasPrefix(err.Error(), "host.run: exec: fork/exec /") || !strings.HasSuffix(err.Error(), ": not a directory") {
		t.Errorf("cwd naming a file: %v", err)
	}
	// a cwd that is not a string is none; only an empty cmd is missing
	d = mustOK(t, runH(), env, map[string]any{"cmd": "  ", "cwd": 5})
	if d["exit_code"] != 0 {
		t.Errorf("blank cmd, numeric cwd: %v", d)
	}
	if res, _ := call(t, runH(), env, map[string]any{"cmd": 5}); res.Error != "host.run: cmd argument is required" {
		t.Errorf("numeric cmd: %q", res.Error)
	}
	// the kitsoki binary's directory is first on PATH.
	self := t.TempDir()
	storytest.WriteFile(t, filepath.Join(self, "kitsoki-selftest"), "#!/bin/sh\necho from-self\n")
	if err := os.Chmod(filepath.Join(self, "kitsoki-selftest"), 0o755); err != nil {
		t.Fatal(err)
	}
	d = mustOK(t, runHandler{selfDir: self}, env, map[string]any{"cmd": "kitsoki-selftest"})
	if d["stdout"] != "from-self\n" {
		t.Errorf("self dir on PATH: %v", d)
	}
}

func TestHostRunTimeouts(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a POSIX shell")
	}
	env := Env{WorkDir: t.TempDir()}
	// The output before the timeout is kept. The timeout's context ends
	// once the command has written its line and touched a file (no clock
	// decides whether the echo ran first); each short form below fires on
	// the clock and checks no output.
	started := filepath.Join(t.TempDir(), "started")
	h := runHandler{withTimeout: func(ctx context.Context, _ time.Duration) (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(ctx)
		go func() {
			for deadline := time.Now().Add(time.Minute); ctx.Err() == nil && time.Now().Before(deadline); { // a hang guard
				if _, err := os.Stat(started); err == nil {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			cancel()
		}()
		return ctx, cancel
	}}
	res, err := call(t, h, env, map[string]any{"cmd": "echo started; touch '" + started + "'; sleep 600", "timeout": "2s"})
	if err != nil {
		t.Fatalf("infra error %v", err)
	}
	if res.Error != "host.run: timed out after 2s" || res.Data["timed_out"] != true || res.Data["exit_code"] != -1 || res.Data["ok"] != false || res.Data["stdout"] != "started\n" {
		t.Errorf("the output before the timeout was lost: %+v", res)
	}
	for _, to := range []any{"100ms", 0.1, "0.1"} {
		res, err := call(t, runH(), env, map[string]any{"cmd": "echo started; sleep 30", "timeout": to})
		if err != nil {
			t.Fatalf("timeout %v: infra error %v", to, err)
		}
		if !strings.HasPrefix(res.Error, "host.run: timed out after ") || res.Data["timed_out"] != true || res.Data["exit_code"] != -1 || res.Data["ok"] != false {
			t.Errorf("timeout %v: %+v", to, res)
		}
	}
	// integer seconds (a computed int, an int64) are accepted; long enough
	// that `true` never reaches them; a blank string is no timeout
	// (conformance host-run-timeout-blank).
	for _, to := range []any{60, int64(60), "60s", "60", "", " \t"} {
		d := mustOK(t, runH(), env, map[string]any{"cmd": "true", "timeout": to})
		if d["ok"] != true {
			t.Errorf("timeout %v: %v", to, d)
		}
	}
	// upstream's texts (conformance host-run-timeout-forms)
	for to, want := range map[any]string{
		"soon":     `host.run: timeout: cannot parse "soon" as duration or seconds`,
		0:          "host.run: timeout must be positive, got 0",
		-1:         "host.run: timeout must be positive, got -1",
		" 0s ":     `host.run: timeout must be positive, got "0s"`,
		"-2":       "host.run: timeout must be positive, got -2",
		"-1d":      "host.run: timeout must be positive, got -1",
		-1.5:       "host.run: timeout must be positive, got -1.5",
		true:       "host.run: timeout must be a number or duration string, got bool",
		uint64(60): "host.run: timeout must be a number or duration string, got uint64",
		"1e400":    `host.run: timeout: cannot parse "1e400" as duration or seconds`,
		"0x10":     `host.run: timeout: cannot parse "0x10" as duration or seconds`,
		"-Inf":     "host.run: timeout must be positive, got -Inf",
		"2d":       "",
		"NaN":      "",
		"1e-12":    "",
		"1_000":    "",
		"30 s":     "",
		"+Inf":     "",
		"30":       "",
		"1m":       "",
		"90.5":     "",
		"1h60x":    "",
		"90.5x":    "",
		"  20  ":   "",
		"1e3":      "",
		"9e30":     "",
		"Inf":      "",
		"90m":      "",
		"1m30s":    "",
		"60s":      "",
		"12h":      "",
		"70":       "",
		"30.25":    "",
		"1h2m3s":   "",
	} {
		res, _ := call(t, runH(), env, map[string]any{"cmd": "true", "timeout": to})
		if res.Error != want {
			t.Errorf("timeout %v: %q, want %q", to, res.Error, want)
		}
	}
}

// TestHostRunCancelKillsProcessTree: a cancelled run stops the command and
// its children (bash -c spawns a sleeping grandchild).
func TestHostRunCancelKillsProcessTree(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a POSIX shell")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		// sleep outlives the hang guards below: a grandchild the cancel
		// missed is still there when they end.
		_, err := runH().Call(ctx, &Call{Args: map[string]any{"cmd": "sleep 600 & echo $! > " + pidFile + "; wait"}})
		done <- err
	}()
	var pid string
	for deadline := time.Now().Add(time.Minute); pid == "" && time.Now().Before(deadline); { // a hang guard
		time.Sleep(10 * time.Millisecond)
		b, _ := os.ReadFile(pidFile)
		if s := strings.TrimSpace(string(b)); strings.HasSuffix(string(b), "\n") {
			pid = s
		}
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
	case <-time.After(30 * time.Second):
		t.Fatal("host.run did not return after cancel")
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); { // a hang guard
		if exec.Command("kill", "-0", pid).Run() != nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	exec.Command("kill", "-9", pid).Run()
	t.Errorf("grandchild %s survived the cancel", pid)
}

func TestHostRunOutputCap(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a POSIX shell")
	}
	d := mustOK(t, runH(), Env{WorkDir: t.TempDir()}, map[string]any{"cmd": "head -c 5000000 /dev/zero | tr '\\0' a"})
	if len(d["stdout"].(string)) != maxRunOutput || d["stdout_truncated"] != true {
		t.Errorf("cap: len %d truncated %v", len(d["stdout"].(string)), d["stdout_truncated"])
	}
}

// TestHostRunOutputAllocationBounded pins that a command printing far
// more than the cap is drained, not kept: a story whose slot runs `yes`
// grew upstream past 4 GiB in seconds (lintgaps38's mutate seed 999800,
// stories 077 and 084; storymut seed 999801, story 042), while ours
// allocates about the cap whatever the command prints.
func TestHostRunOutputAllocationBounded(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a POSIX shell")
	}
	const printed = 16 * maxRunOutput
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d := mustOK(t, runH(), Env{WorkDir: t.TempDir()}, map[string]any{"cmd": fmt.Sprintf("yes | head -c %d", printed)})
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 6*maxRunOutput {
		t.Errorf("host.run of %d printed bytes allocated %d bytes; want at most %d (about the %d kept)", printed, got, 6*maxRunOutput, maxRunOutput)
	}
	if len(d["stdout"].(string)) != maxRunOutput || d["stdout_truncated"] != true {
		t.Errorf("cap: len %d truncated %v", len(d["stdout"].(string)), d["stdout_truncated"])
	}
}

func TestTrailingJSON(t *testing.T) {
	cases := []struct {
		out     string
		want    string // JSON-ish %v of the value, "" = none
		wantErr bool
	}{
		{"hello\n{\"a\": 1}\n", "map[a:1]", false},
		{"{\"a\":1}", "map[a:1]", false},
		{"log line\n{\n  \"a\": {\n    \"b\": [1, 2]\n  }\n}\n", "map[a:map[b:[1 2]]]", false},
		{"x\n[\n  {\"a\": 1},\n  {\"b\": 2}\n]", "[map[a:1] map[b:2]]", false},
		{"{\"first\":1}\nthen {\"b\":2}", "", false},
		{"plain text", "", false},
		{"", "", false},
		{"hello\n{\"a\": 1", "", true},
		{"hello\n{broken}", "", true},
		{"{\"a\":1}\n{\"b\":2}", "map[b:2]", false},
		{"{\"a\": 1.5, \"n\": 12345678901}", "map[a:1.5 n:1.2345678901e+10]", false}, // float64, as upstream
		// a last line that is one scalar value (conformance host-run-json-scalar)
		{"3\n", "3", false},
		{"hello\n  true  \r\n", "true", false},
		{"{\"a\":1}\n\"s\"", "s", false},
		{"x\n[1,\n2", "2", false},
		{"1 2", "", false},
		{"3\nhello", "", false},
		{"03", "", false},
		{"\"unterminated", "", true},
		{"\"a\"b", "", true},
	}
	for _, c := range cases {
		v, perr, found := trailingJSON(c.out)
		got := ""
		if found {
			got = sprint(v)
		}
		if got != c.want || (perr != "") != c.wantErr {
			t.Errorf("trailingJSON(%q) = %q, err %q; want %q err %v", c.out, got, perr, c.want, c.wantErr)
		}
	} // upstream's parse error is encoding/json's text for the last line
	for out, want := range map[string]string{
		"x\n[1,":      "unexpected end of JSON input",
		"{\"a\":1} 3": "invalid character '3' after top-level value",
	} {
		if _, perr, _ := trailingJSON(out); perr != want {
			t.Errorf("trailingJSON(%q) parse error %q, want %q", out, perr, want)
		}
	}
}

// The command sees KITSOKI_APP_DIR, the story's directory, whatever
// kitsoki was started with (conformance run-app-dir-env); a run with no
// story directory leaves the inherited value alone.
func TestHostRunAppDirEnv(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a POSIX shell")
	}
	t.Setenv("KITSOKI_APP_DIR", "/inherited")
	story := t.TempDir()
	d := mustOK(t, runH(), Env{WorkDir: t.TempDir(), StoryDir: story}, map[string]any{"cmd": `printf %s "$KITSOKI_APP_DIR"`})
	if d["stdout"] != story {
		t.Errorf("with a story: %q, want %q", d["stdout"], story)
	}
	d = mustOK(t, runH(), Env{WorkDir: t.TempDir()}, map[string]any{"cmd": `printf %s "$KITSOKI_APP_DIR"`})
	if d["stdout"] != "/inherited" {
		t.Errorf("without a story: %q", d["stdout"])
	}
}

// TestHostRunPreflight: what host.run refuses before it starts a process
// Preflight answers as Call does, and a call that would start one is nil
// and nil (conformance job-refused-heard).
func TestHostRunPreflight(t *testing.T) {
	env := Env{WorkDir: t.TempDir()}
	refused := map[string]map[string]any{
		"unsupported type uint64":   {"cmd": "echo", "args": []any{"x", uint64(3)}},
		"got uint64":                {"cmd": "echo hi", "timeout": uint64(3)},
		"cmd argument":              {"cmd": ""},
		"must be positive":          {"cmd": "echo hi", "timeout": -1},
		"must be a list":            {"cmd": "echo", "args": "x"},
		"nosuchdir":                 {"cmd": "echo hi", "cwd": "nosuchdir"},
		"executable file not found": {"cmd": "kitsoki-no-such-program", "args": []any{"a"}},
	}
	p := runHandler{}
	for want, args := range refused {
		c := &Call{Handler: HandlerRun, Args: args, Env: env}
		res, err := p.Preflight(c)
		if res == nil && err == nil {
			t.Fatalf("%v: Preflight would start a process, want %q", args, want)
		}
		got := fmt.Sprint(err)
		if res != nil {
			got = res.Error
		}
		called, cerr := p.Call(context.Background(), c)
		if callGot := cmp.Or(called.Error, fmt.Sprint(cerr)); !strings.Contains(got, want) || callGot != got {
			t.Errorf("%v: Preflight %q, Call %q; want both to say %q", args, got, callGot, want)
		}
	}
	for _, args := range []map[string]any{{"cmd": "echo hi"}, {"cmd": "echo", "args": []any{"x", 3}}, {"cmd": "no-such-program-in-a-shell"}} {
		if res, err := p.Preflight(&Call{Handler: HandlerRun, Args: args, Env: env}); res != nil || err != nil {
			t.Errorf("%v: Preflight %v, %v; want nil, nil (the process starts)", args, res, err)
		}
	}
}

// TestHostRunNeverEndingOutputStops pins that a command printing for ever
// (`yes`, as a mutated slot value makes it: hunt135, mutate seed 2026200
// story 079 fixture m5) is stopped once it printed maxRunPrinted, with a
// domain error, instead of holding the fixture (and `kitsoki test`) for
// ever. The deadline only guards the test: before the bound it hit it.
func TestHostRunNeverEndingOutputStops(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a POSIX shell")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := runH().Call(ctx, &Call{Handler: "host.run", Env: Env{WorkDir: t.TempDir()}, Args: map[string]any{"cmd": "yes"}})
	if err != nil {
		t.Fatalf("host.run of yes: %v (the command was not stopped)", err)
	}
	want := fmt.Sprintf("host.run: stopped after printing more than %d MiB", maxRunPrinted>>20)
	if res.Error != want {
		t.Errorf("error = %q, want %q", res.Error, want)
	}
	if d := res.Data; d["exit_code"] != -1 || d["ok"] != false || d["stdout_truncated"] != true || len(d["stdout"].(string)) != maxRunOutput {
		t.Errorf("data: exit_code %v ok %v truncated %v len %d", d["exit_code"], d["ok"], d["stdout_truncated"], len(d["stdout"].(string)))
	}
}
