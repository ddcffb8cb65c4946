//go:build unix

package proc

import (
	"os"
	"os/exec"
	"syscall"
)

// groupGuard is a sentinel process in a child's process group that kills
// the group when kitsoki goes away without stopping it (killed with
// SIGKILL, crashed): the kernel's parent-death signal reaches only the
// child kitsoki started (and exists on Linux alone), not what that child
// started (`sleep 1000; echo` under bash -c, the program `go run` builds),
// which would be left running. The sentinel reads a pipe only kitsoki
// writes to; the pipe ends when kitsoki's process does, and the sentinel
// then kills its group. Once the child has exited and been reaped the
// sentinel is killed first (release), so nothing else of the group is
// touched: [Process.Stop] and [Process.Kill] end the rest.
type groupGuard struct {
	cmd *exec.Cmd
	w   *os.File
}

// guardScript waits for the end of standard input, then kills the
// process group it is in.
const guardScript = "read _; kill -KILL 0"

// guardGroup starts the sentinel in process group pgid; nil when it cannot
// (no sh, or the group is already gone), which leaves the call as it was.
func guardGroup(pgid int) *groupGuard {
	sh, err := exec.LookPath("sh")
	if err != nil {
		return nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	cmd := exec.Command(sh, "-c", guardScript)
	cmd.Stdin = r
	cmd.Env = []string{}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil
	}
	return &groupGuard{cmd: cmd, w: w}
}

// release stops the sentinel without letting it kill its group.
func (g *groupGuard) release() {
	if g == nil {
		return
	}
	_ = g.cmd.Process.Kill()
	_ = g.cmd.Wait()
	g.w.Close()
}
