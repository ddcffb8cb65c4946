//go:build unix

package proc

import (
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// groupGuard is a sentinel process that leads a child's process group and
// kills the group when kitsoki dies without stopping it: the parent-death
// signal reaches only the child itself (and exists on Linux alone), not
// what the child started.
//
// Why one sentinel per child and not one per kitsoki process: a group's id
// is its leader's pid, and the kernel frees that number as soon as no
// process has it as pid, group or session id (an open pidfd does not hold
// it). Once kitsoki is SIGKILLed its children are handed to init (or a
// subreaper), which reaps the exited ones at once, so a sentinel outside
// the group could send its kill to a number that a stranger's group has
// taken by then; a member of the group holds the number itself and kills
// with kill(0). And a child can only be born into a group that exists
// before it is forked: its pid is known to kitsoki only after it has
// executed its program (which may fork at once), and setpgid on a child
// that has executed fails, so a group registered with a shared sentinel
// after the start leaves a window in which a SIGKILL of kitsoki strands
// what the child forked.
//
// The group's id is held by the sentinel until it is reaped, just after
// the child: Stop and Kill of a running child signal a held id. Their
// kill after the child's reaping, for what it left in the group (which a
// spawner may leave running, as host.run leaves a detached daemon), is
// sent once the sentinel is gone: it reaches the right group while
// something the child left still holds the id; when nothing does, the id
// may have been freed.
//
// What is shared is all that can be: the path of sh, looked up once, and
// the pipe every sentinel reads (only kitsoki holds its write end, and
// never writes: the pipe ends when kitsoki does).
type groupGuard struct {
	p *os.Process
}

// guardScript waits for the end of standard input, then kills the
// process group it is in; the SIGTERM a stop sends the group does not end
// it (it still guards the grace that follows).
const guardScript = "trap '' TERM; read _; kill -KILL 0"

var guardShared struct {
	once sync.Once
	sh   string   // "" when there is no sh
	r, w *os.File // w is never written nor closed: it ends with kitsoki
}

// guardSetup looks sh up and opens the sentinels' pipe, once per process.
func guardSetup() (sh string, r *os.File) {
	g := &guardShared
	g.once.Do(func() {
		sh, err := exec.LookPath("sh")
		if err != nil {
			return
		}
		r, w, err := os.Pipe() // close-on-exec: no child but a sentinel gets an end
		if err != nil {
			return
		}
		g.sh, g.r, g.w = sh, r, w
	})
	return g.sh, g.r
}

// newGuard starts the sentinel as the leader of a new process group, for
// the child to start in (join): the group is guarded before the child can
// start anything, so no kill of kitsoki falls between the two. nil when
// it cannot (no sh), which leaves the child in a group of its own.
func newGuard() *groupGuard {
	sh, r := guardSetup()
	if sh == "" {
		return nil
	}
	p, err := os.StartProcess(sh, []string{"sh", "-c", guardScript}, &os.ProcAttr{
		Env:   []string{},
		Files: []*os.File{r},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		return nil
	}
	return &groupGuard{p: p}
}

// release kills the sentinel and reaps it; until then its pid holds the
// group's id, so a kill of the group reaches no one else's.
func (g *groupGuard) release() {
	if g == nil {
		return
	}
	_ = g.p.Kill()
	_, _ = g.p.Wait()
}

// join puts cmd (prepared: Setpgid) in the sentinel's group.
func (g *groupGuard) join(cmd *exec.Cmd) {
	if g != nil {
		cmd.SysProcAttr.Pgid = g.p.Pid
	}
}

// leader is the pid that names the group: the sentinel's, else the
// child's.
func (g *groupGuard) leader(child *os.Process) int {
	if g == nil {
		return child.Pid
	}
	return g.p.Pid
}
