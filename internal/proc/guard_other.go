//go:build !unix

package proc

import (
	"os"
	"os/exec"
)

// groupGuard has no sentinel where there are no process groups.
type groupGuard struct{}

func newGuard() *groupGuard { return nil }

func (*groupGuard) release() {}

func (*groupGuard) join(*exec.Cmd) {}

func (*groupGuard) leader(child *os.Process) int { return child.Pid }
