package host

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// lookPathFunc finds a program on PATH (exec.LookPath's shape).
type lookPathFunc func(string) (string, error)

// cliPresent reports whether bin is on PATH through look (nil = exec.LookPath).
func cliPresent(look lookPathFunc, bin string) bool {
	if look == nil {
		look = exec.LookPath
	}
	_, err := look(bin)
	return err == nil
}

// opArg is a call's op: the op argument when it is a non-blank string,
// else the suffix a prefix lookup dropped ("" when neither).
func opArg(c *Call) string {
	if op := strings.TrimSpace(strArg(c.Args, "op")); op != "" {
		return op
	}
	return c.Op
}

// notDriven is the domain error of a handler whose program is installed
// but which kitsoki does not run (docs/compat/hosts.md): upstream would
// start it, reaching a network or a GUI that no test run should.
func notDriven(handler, program, what string) Result {
	return Result{Error: fmt.Sprintf("%s: kitsoki does not run %s (%s); stub %s under host_handlers, or call %s through host.run",
		handler, program, what, handler, program)}
}

// Upstream's ticket and artifact backends that run a CLI taking an op.
const (
	HandlerGHTicket         = "host.gh.ticket"
	HandlerCypilotArtifacts = "host.cypilot_artifacts"
)

// opCLIHandler serves name as upstream answers it without its CLI bin:
// op is required, then the CLI's absence (missing) is the answer whatever
// the op (conformance builtins-cli-absent). With bin installed kitsoki
// still runs nothing: gh reaches GitHub, which a run here must not do
// behind the story's back (docs/compat/hosts.md).
type opCLIHandler struct {
	name, bin, missing string
	look               lookPathFunc
}

func (h opCLIHandler) Call(ctx context.Context, c *Call) (Result, error) {
	op := opArg(c)
	if op == "" {
		return domainErr("%s: op argument is required", h.name), nil
	}
	if !cliPresent(h.look, h.bin) {
		return domainErr("%s: %s", h.name, h.missing), nil
	}
	return notDriven(h.name, h.bin, "op "+op), nil
}
