package host

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/proc"
)

// maxRunOutput bounds how much output host.run keeps; the rest is dropped
// and Data.stdout_truncated says so.
const maxRunOutput = 4 << 20

// runHandler serves host.run (story-runtime.md §2.8).
//
// with:
//
//	cmd:           the shell command line (bash -c), or the program when args is given
//	args:          argv elements; present => cmd is exec'd directly, no shell
//	shell:         force shell mode (true) or argv mode (false)
//	cwd:           working directory, relative to the run's working directory
//	env:           extra environment entries {K: V}
//	stdin:         text fed to the command
//	timeout:       seconds (number or numeric string) or a Go duration string
//	fail_on_error: a non-zero exit is a domain error (on_error applies)
//
// Data: {stdout (stdout and stderr interleaved, untrimmed), exit_code, ok,
// stdout_json? | stdout_json_parse_error?}; a timeout adds timed_out.
type runHandler struct {
	selfDir string // prepended to PATH ("" = none)
	// withTimeout makes the context of a call with timeout: (nil =
	// context.WithTimeout); a test ends it when the command has started.
	withTimeout func(context.Context, time.Duration) (context.Context, context.CancelFunc)
}

func (h runHandler) Call(ctx context.Context, c *Call) (Result, error) {
	args := c.Args
	sp, cmd, bad, err := prepareRun(c)
	if bad != nil {
		return *bad, nil
	}
	if err != nil {
		return Result{}, err
	}
	cmdStr, timeout := sp.cmd, sp.timeout

	runCtx := ctx
	if timeout > 0 {
		withTimeout := context.WithTimeout
		if h.withTimeout != nil {
			withTimeout = h.withTimeout
		}
		var cancel context.CancelFunc
		runCtx, cancel = withTimeout(ctx, timeout)
		defer cancel()
	}
	if in, ok := args["stdin"].(string); ok {
		cmd.Stdin = strings.NewReader(in)
	}
	out := proc.NewHead(maxRunOutput)
	bound := &printedBound{w: out, max: maxRunPrinted}
	err = runCollect(runCtx, cmd, runPolicy(h.selfDir, c.Env.StoryDir, args["env"]), bound)
	exit := 0
	if bound.passed() && ctx.Err() == nil {
		data := map[string]any{"stdout": out.String(), "exit_code": -1, "ok": false, "stdout_truncated": true}
		return Result{Data: data, Error: fmt.Sprintf("host.run: stopped after printing more than %d MiB", bound.max>>20)}, nil
	}
	if err != nil {
		var ee *exec.ExitError
		switch {
		case ctx.Err() != nil:
			return Result{}, fmt.Errorf("host.run %q: stopped: %v", cmdStr, ctx.Err())
		case runCtx.Err() != nil:
			data := map[string]any{"stdout": out.String(), "exit_code": -1, "ok": false, "timed_out": true}
			if out.Truncated() {
				data["stdout_truncated"] = true
			}
			return Result{Data: data, Error: fmt.Sprintf("host.run: timed out after %s", timeout)}, nil
		case errors.As(err, &ee):
			exit = ee.ExitCode() // -1 for a command a signal ended, as upstream
		default: // upstream's text: host.run: exec: exec: "x": executable file not found in $PATH
			return Result{}, fmt.Errorf("host.run: exec: %v", err)
		}
	}
	data := runData(out, exit)
	if boolArg(args, "fail_on_error") && exit != 0 {
		return Result{Data: data, Error: fmt.Sprintf("host.run: command exited %d", exit)}, nil
	}
	return Result{Data: data}, nil
}

// Preflight is the answer a call ends with before its process starts
// (a with: it refuses, a working directory or program that is not there),
// nil and nil when it would start one.
func (runHandler) Preflight(c *Call) (*Result, error) {
	_, _, bad, err := prepareRun(c)
	return bad, err
}

// prepareRun reads with: and finds the program and its directory: the
// command to start, or what the call fails with first (a domain error
// bad, or err).
func prepareRun(c *Call) (sp runSpec, cmd *exec.Cmd, bad *Result, err error) {
	sp, bad = parseRunSpec(c.Args)
	if bad != nil {
		return sp, nil, bad, nil
	}
	wd, err := c.Env.workDir()
	if err != nil {
		return sp, nil, nil, fmt.Errorf("host.run: %v", err)
	}
	cmd = sp.command()
	if cmd.Dir, err = commandDir(cmd, wd, strArg(c.Args, "cwd")); err != nil {
		// exec looks the program up before it changes directory
		// (conformance run-bad-cwd, host-run-lookup-before-cwd)
		return sp, nil, nil, fmt.Errorf("host.run: exec: %v", cmp.Or(cmd.Err, err))
	}
	if cmd.Err != nil {
		// a program exec cannot find
		return sp, nil, nil, fmt.Errorf("host.run: exec: %v", cmd.Err)
	}
	return sp, cmd, nil, nil
}

// runSpec is what host.run's with: asks to run.
type runSpec struct {
	cmd     string
	argv    []string
	shell   bool
	timeout time.Duration
}

// parseRunSpec reads cmd, args, shell and timeout from with:; a value that
// cannot be used is the domain error it returns.
func parseRunSpec(args map[string]any) (runSpec, *Result) {
	bad := func(format string, a ...any) (runSpec, *Result) {
		r := domainErr(format, a...)
		return runSpec{}, &r
	}
	sp := runSpec{cmd: strArg(args, "cmd")}
	if sp.cmd == "" { // a blank command runs, as upstream
		return bad("host.run: cmd argument is required")
	}
	// the timeout is read before args, as upstream: of a bad timeout and a
	// bad args element, the timeout's error is the one (conformance
	// run-int-uint64)
	if to, ok := args["timeout"]; ok && to != nil {
		d, err := durationArg("host.run", to)
		if err != nil {
			return bad("%v", err)
		}
		sp.timeout = d
	}
	rawArgs, hasArgs := args["args"]
	if hasArgs && rawArgs != nil {
		list, ok := rawArgs.([]any)
		if !ok {
			return bad("host.run: args must be a list, got %T", rawArgs)
		}
		for i, a := range list {
			s, err := argString(a)
			if err != nil {
				return bad("host.run: args[%d]: %v", i, err)
			}
			sp.argv = append(sp.argv, s)
		}
	}
	sp.shell = !hasArgs || rawArgs == nil
	if s, ok := args["shell"].(bool); ok {
		sp.shell = s
	}
	return sp, nil
}

// command is the process to start: the shell line (cmd and the args
// joined by spaces) in shell mode, else cmd exec'd with args as argv.
func (sp runSpec) command() *exec.Cmd {
	if !sp.shell {
		return exec.Command(sp.cmd, sp.argv...)
	}
	line := sp.cmd
	if len(sp.argv) > 0 {
		line += " " + strings.Join(sp.argv, " ")
	}
	return shellCommand(line)
}

// runData is host.run's result data for a command that exited: the output
// (and whether it was cut), the exit code, and the JSON value its output
// ends with (or why that did not parse).
func runData(out *proc.Head, exit int) map[string]any {
	text := out.String()
	data := map[string]any{"stdout": text, "exit_code": exit, "ok": exit == 0}
	if out.Truncated() {
		data["stdout_truncated"] = true
	}
	if v, perr, found := trailingJSON(text); found {
		data["stdout_json"] = v
	} else if perr != "" {
		data["stdout_json_parse_error"] = perr
	}
	return data
}

// The existing engine's words when a host.run timeout or args element is a
// uint64 (a YAML whole number that is not negative); pkg/lint and
// pkg/flowtest quote them in the warnings that foresee the refusal.
const (
	UintTimeoutRefusal = "timeout must be a number or duration string, got uint64"
	UintArgRefusal     = "unsupported type uint64"
)

// argString converts one args element (story-runtime §2.8): nil → "",
// strings as they are, bools and numbers in their fmt form, maps and lists
// as compact JSON. A uint64 (a YAML whole number that is not negative, read
// as written, from a world default or a fixture's slot) is refused with
// upstream's text, as upstream refuses it (conformance run-int-uint64).
func argString(a any) (string, error) {
	if _, ok := a.(uint64); ok {
		return "", errors.New(UintArgRefusal)
	}
	if n, ok := jsonvalue.Integer(a); ok {
		return fmt.Sprint(n), nil
	}
	switch t := a.(type) {
	case nil:
		return "", nil
	case string:
		return t, nil
	case bool, float64, float32:
		return fmt.Sprint(t), nil
	case map[string]any, []any:
		b, err := json.Marshal(t)
		if err != nil {
			return "", fmt.Errorf("json marshal: %v", err) // upstream's words
		}
		return string(b), nil
	}
	return "", fmt.Errorf("unsupported type %T", a)
}

// bashPath is bash's path, "" where there is none.
var bashPath = sync.OnceValue(func() string {
	p, err := exec.LookPath("bash")
	if err != nil {
		return ""
	}
	return p
})

// shellCommand runs line through bash -c (sh -c where bash is missing;
// cmd /C on Windows).
func shellCommand(line string) *exec.Cmd {
	if runtime.GOOS == "windows" {
		return exec.Command("cmd", "/C", line)
	}
	if p := bashPath(); p != "" {
		c := exec.Command(p, "-c", line)
		c.Args[0] = "bash" // its $0, which its own errors print ("bash: line 1: …"), as upstream
		return c
	}
	return exec.Command("sh", "-c", line)
}

// runPolicy is how host.run's command runs (internal/proc): kitsoki's
// environment, selfDir first on PATH, KITSOKI_APP_DIR the root story's
// directory (conformance run-app-dir-env), then the story's env entries in
// key order.
func runPolicy(selfDir, storyDir string, extra any) proc.Policy {
	var vars []proc.Var
	if selfDir != "" {
		vars = append(vars, proc.Var{Key: "PATH", Value: selfDir, Prepend: true})
	}
	if storyDir != "" {
		vars = append(vars, proc.Var{Key: "KITSOKI_APP_DIR", Value: storyDir})
	}
	if m, ok := extra.(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			vars = append(vars, proc.Var{Key: k, Value: stringify(m[k])})
		}
	}
	return proc.Policy{Env: proc.Env{Policy: proc.EnvInherit, Vars: vars}}
}

// selfDir is the directory of the running kitsoki binary ("" if unknown),
// which host.run puts first on PATH.
func selfDir() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return filepath.Dir(exe)
}
