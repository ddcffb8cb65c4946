package host

import (
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
