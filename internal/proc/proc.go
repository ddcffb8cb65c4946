package proc

import (
	"os"
	"os/exec"
	"time"
)

// Prepare applies the policy to cmd before Start: a new process group
// and, on Linux, SIGKILL when the parent dies. It keeps any SysProcAttr
// fields the caller set.
func Prepare(cmd *exec.Cmd) { prepare(cmd) }

// Terminate asks p's process group to stop (SIGTERM; os.Interrupt or a
// kill where groups and SIGTERM do not exist). A group already gone is
// not an error.
func Terminate(p *os.Process) error {
	if p == nil {
		return nil
	}
	return terminate(p)
}

// Kill kills p's process group (SIGKILL). A group already gone is not an
// error.
func Kill(p *os.Process) error {
	if p == nil {
		return nil
	}
	return kill(p)
}

// Stop terminates p's group and, if done is not closed within grace,
// kills it; it returns once done is closed (the caller's Wait finished).
func Stop(p *os.Process, done <-chan struct{}, grace time.Duration) {
	if p == nil {
		return
	}
	_ = Terminate(p)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
		// The leader is gone; anything it left in its group goes too.
		_ = Kill(p)
		return
	case <-t.C:
	}
	_ = Kill(p)
	<-done
}
