package host

import (
	"context"
	"strings"
)

// HandlerLocalCI is upstream's local build/test runner (a ci iface's
// default binding).
const HandlerLocalCI = "host.local"

// localCIHandler serves host.local as upstream (conformance
// builtins-local-ci): op run_tests runs `go test ./... [target]` and build
// `go build ./... [target]` in workdir (the run's working directory when
// absent or not a string; relative to it, as host.run's cwd). The answer is
// {ok, log} (build) or {ok, passed, failed, log, junit: ""} (run_tests):
// log is stdout then stderr; passed and failed count the lines that,
// trimmed, start with "--- PASS" and "--- FAIL" (go test -v's, so a plain
// run counts failures only). A failing build or test is ok: false, not an
// error; go missing from PATH or a workdir that cannot be entered is the
// domain error ci.<op>: exec: <why>. remote_status is upstream's refusal.
type localCIHandler struct{}

func (localCIHandler) Call(ctx context.Context, c *Call) (Result, error) {
	const name = HandlerLocalCI
	op := opArg(c)
	switch op {
	case "":
		return domainErr("%s: op argument is required", name), nil
	case "remote_status":
		return domainErr("%s: remote_status not supported by local CI", name), nil
	case "run_tests", "build":
	default:
		return domainErr("%s: unknown op %q", name, op), nil
	}
	verb := "test"
	if op == "build" {
		verb = "build"
	}
	args := []string{verb, "./..."}
	if t := strArg(c.Args, "target"); t != "" {
		args = append(args, t)
	}
	r, err := runProgram(ctx, &c.Env, strArg(c.Args, "workdir"), "go", args...)
	if err != nil {
		return domainErr("ci.%s: exec: %v", op, err), nil
	}
	log := r.stdout + r.stderr
	if op == "build" {
		return Result{Data: map[string]any{"ok": r.exit == 0, "log": log}}, nil
	}
	passed, failed := 0, 0
	for line := range strings.Lines(log) {
		switch line = strings.TrimSpace(line); {
		case strings.HasPrefix(line, "--- PASS"):
			passed++
		case strings.HasPrefix(line, "--- FAIL"):
			failed++
		}
	}
	return Result{Data: map[string]any{"ok": r.exit == 0, "passed": passed, "failed": failed, "log": log, "junit": ""}}, nil
}
