package host

import (
	"context"
	"slices"
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
		if !SafeGoTarget(t) {
			return domainErr("%s: target %q is a go option that reaches outside the tests (it may run a program or write a file); name a package pattern, or one of the test flags -%s", name, t, strings.Join(goTestFlags, ", -")), nil
		}
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

// goTestFlags are the go test flags a story's target may be: each only
// chooses or shapes the tests run. The others can run a program
// (-toolexec, -exec, -ldflags=-extld=...) or write a file anywhere (-o,
// -coverprofile, -cpuprofile, -outputdir), so a target starting with "-"
// that is not one of these is refused, never handed to go.
var goTestFlags = []string{"run", "skip", "v", "short", "count", "failfast", "timeout", "race", "cover", "bench", "benchtime", "benchmem", "cpu", "parallel", "shuffle", "tags", "json"}

// SafeGoTarget reports whether target, appended to `go <verb> ./...`, is a
// package pattern or one of [goTestFlags] (-name or --name, with or
// without =value): host.local refuses any other, and validate warns at
// a literal one (pkg/lint host-local-target).
func SafeGoTarget(target string) bool {
	if !strings.HasPrefix(target, "-") {
		return true
	}
	flag := strings.TrimPrefix(strings.TrimPrefix(target, "-"), "-")
	flag, _, _ = strings.Cut(flag, "=")
	return slices.Contains(goTestFlags, flag)
}
