//go:build unix

package proc

import (
	"os"
	"os/exec"
	"syscall"
)

// groupGuard is a sentinel process in a child's process group that kills
// the group when kitsoki dies without stopping it: the parent-death signal
// reaches only the child itself (and exists on Linux alone), not what the
// child started. The sentinel reads a pipe only kitsoki writes to, and
// kills its group when that pipe ends. Once the child has been reaped the
// sentinel is killed first (release), so nothing else is touched.
type groupGuard struct {
	cmd *exec.Cmd
	w   *os.File
}

// guardScript waits for the end of standard input, then kills the
// process group it is in; the SIGTERM a stop sends the group does not end
// it (it still guards the grace that follows).
const guardScript = "trap '' TERM; read _; kill -KILL 0"

// newGuard starts the sentinel as the leader of a new process group, for
// the child to start in (join): the group is guarded before the child can
// start anything, so no kill of kitsoki falls between the two. nil when
// it cannot (no sh), which leaves the child in a group of its own.
func newGuard() *groupGuard {
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
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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

// join puts cmd (prepared: Setpgid) in the sentinel's group.
func (g *groupGuard) join(cmd *exec.Cmd) {
	if g != nil {
		cmd.SysProcAttr.Pgid = g.cmd.Process.Pid
	}
}

// leader is the process whose pid names the group: the sentinel, else
// the child itself.
func (g *groupGuard) leader(child *os.Process) *os.Process {
	if g == nil {
		return child
	}
	return g.cmd.Process
}
