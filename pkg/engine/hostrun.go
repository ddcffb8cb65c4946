package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// maxCapture bounds how much stdout/stderr host.run keeps per stream.
const maxCapture = 4 << 20

// hostRun executes `host.run`.
//
// with:
//
//	cmd:           the program (argv mode) or the shell command line (shell mode)
//	args:          argument list; present => argv mode, absent => shell mode
//	shell:         force shell mode (true) or argv mode (false)
//	cwd:           working directory (relative to the process cwd); default process cwd
//	env:           extra environment entries {K: V}
//	timeout:       Go duration; default none (the run's context still applies)
//	fail_on_error: a non-zero exit is a host error (on_error applies)
//	stdin:         text fed to the command's stdin
//
// It returns {stdout, stderr, exit_code, ok, stdout_json?}. A command that
// exits non-zero is a normal result (ok=false) unless fail_on_error is set.
func hostRun(ctx context.Context, args map[string]any) (map[string]any, error) {
	cmdStr, _ := args["cmd"].(string)
	if strings.TrimSpace(cmdStr) == "" {
		return nil, errors.New("host.run: with.cmd is required (the program, or a shell command line)")
	}
	rawArgs, hasArgs := args["args"]
	var argv []string
	if hasArgs && rawArgs != nil {
		list, ok := rawArgs.([]any)
		if !ok {
			return nil, fmt.Errorf("host.run: with.args must be a list, got %T", rawArgs)
		}
		for _, a := range list {
			switch t := a.(type) {
			case string:
				argv = append(argv, t)
			case nil:
				argv = append(argv, "")
			case map[string]any, []any:
				b, _ := json.Marshal(t)
				argv = append(argv, string(b))
			default:
				argv = append(argv, fmt.Sprint(t))
			}
		}
	}
	shell := !hasArgs || rawArgs == nil
	if s, ok := args["shell"].(bool); ok {
		shell = s
	}
	if to, ok := args["timeout"]; ok && to != nil {
		d, err := time.ParseDuration(fmt.Sprint(to))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("host.run: with.timeout %q is not a positive Go duration (e.g. 30s)", fmt.Sprint(to))
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	var c *exec.Cmd
	if shell {
		line := cmdStr
		if len(argv) > 0 {
			line += " " + strings.Join(argv, " ")
		}
		if runtime.GOOS == "windows" {
			c = exec.CommandContext(ctx, "cmd", "/C", line)
		} else {
			c = exec.CommandContext(ctx, "sh", "-c", line)
		}
	} else {
		c = exec.CommandContext(ctx, cmdStr, argv...)
	}
	if cwd, ok := args["cwd"].(string); ok && cwd != "" {
		abs, err := filepath.Abs(cwd)
		if err != nil {
			return nil, fmt.Errorf("host.run: cwd %q: %v", cwd, err)
		}
		c.Dir = abs
	}
	if env, ok := args["env"].(map[string]any); ok && len(env) > 0 {
		keys := make([]string, 0, len(env))
		for k := range env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		c.Env = c.Environ()
		for _, k := range keys {
			c.Env = append(c.Env, k+"="+fmt.Sprint(env[k]))
		}
	}
	if in, ok := args["stdin"].(string); ok {
		c.Stdin = strings.NewReader(in)
	}
	var stdout, stderr capBuffer
	stdout.max, stderr.max = maxCapture, maxCapture
	c.Stdout, c.Stderr = &stdout, &stderr
	setProcessGroup(c)
	c.WaitDelay = 2 * time.Second
	err := c.Run()
	exit := 0
	if err != nil {
		var ee *exec.ExitError
		switch {
		case ctx.Err() != nil:
			return nil, fmt.Errorf("host.run %q: stopped: %v", cmdStr, ctx.Err())
		case errors.As(err, &ee):
			exit = ee.ExitCode()
			if exit < 0 {
				exit = 1
			}
		default:
			return nil, fmt.Errorf("host.run %q: %v", cmdStr, err)
		}
	}
	out := strings.TrimRight(stdout.String(), "\r\n")
	res := map[string]any{
		"stdout":    out,
		"stderr":    strings.TrimRight(stderr.String(), "\r\n"),
		"exit_code": exit,
		"ok":        exit == 0,
	}
	if js := strings.TrimSpace(out); js != "" && (js[0] == '{' || js[0] == '[') {
		if v, err := decodeJSON([]byte(js)); err == nil {
			res["stdout_json"] = v
		}
	}
	if f, _ := args["fail_on_error"].(bool); f && exit != 0 {
		return res, fmt.Errorf("host.run %q exited with status %d (fail_on_error: true)", cmdStr, exit)
	}
	return res, nil
}

// capBuffer keeps the first max bytes written and drops the rest.
type capBuffer struct {
	bytes.Buffer
	max       int
	truncated bool
}

func (b *capBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room < len(p) {
		b.truncated = true
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
