package proc

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Process is one child started by [Start].
type Process struct {
	cmd   *exec.Cmd
	pol   Policy
	stdin io.WriteCloser
	tail  *Tail

	// group is the pid that names the child's process group (the
	// sentinel's that guards it, or the child's)
	group int

	done chan struct{} // closed once Wait returned
	err  error         // Wait's result, set before done closes

	stopMu  sync.Mutex // one stop sequence at a time
	mu      sync.Mutex // guards outcome
	outcome Outcome
}

// Start starts cmd under pol: its own process group that dies with
// kitsoki (groupGuard, and on Linux the parent-death signal), pol's
// environment, stdin pipe and stderr tail. cmd holds what the spawner
// owns (path, args, directory, stdout, stdin data). Start reaps the child
// itself (use [Process.Wait], never cmd.Wait); when ctx ends first, the
// child is stopped with pol's stop sequence (a nil ctx is
// context.Background()). The error is cmd.Start's, for the spawner to explain.
func Start(ctx context.Context, cmd *exec.Cmd, pol Policy) (*Process, error) {
	if cmd.Env != nil {
		return nil, errors.New("proc.Start: cmd.Env is set; the environment comes from Policy.Env")
	}
	if cmd.Process != nil {
		return nil, errors.New("proc.Start: cmd was already started")
	}
	cmd.Env = pol.Env.Build(os.Environ())
	prepare(cmd)
	cmd.WaitDelay = pol.WaitDelay
	p := &Process{cmd: cmd, pol: pol, done: make(chan struct{})}
	if pol.StdinPipe {
		w, err := cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		p.stdin = w
	}
	if pol.StderrTail > 0 {
		p.tail = NewTail(pol.StderrTail)
		if cmd.Stderr == nil {
			cmd.Stderr = p.tail
		} else {
			cmd.Stderr = io.MultiWriter(p.tail, cmd.Stderr) // the tail never fails
		}
		if pol.TailStdout && cmd.Stdout == nil {
			cmd.Stdout = cmd.Stderr
		}
	}
	guard := newGuard()
	guard.join(cmd)
	if err := cmd.Start(); err != nil {
		guard.release()
		return nil, err // exec closed the pipes it opened
	}
	p.group = guard.leader(cmd.Process)
	go func() {
		p.err = cmd.Wait()
		guard.release()
		close(p.done)
	}()
	if ctx != nil && ctx.Done() != nil {
		go func() {
			select {
			case <-ctx.Done():
				p.Stop()
			case <-p.done:
			}
		}()
	}
	return p, nil
}

// Pid is the child's process id (its group's is its sentinel's, or its
// own without one).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Stdin is the pipe to the child's stdin (nil without Policy.StdinPipe).
func (p *Process) Stdin() io.WriteCloser { return p.stdin }

// Tail is the end of the child's stderr (nil without Policy.StderrTail;
// a nil Tail reads as empty).
func (p *Process) Tail() *Tail { return p.tail }

// Done is closed once the child has exited and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait waits for the child to exit and returns what exec.Cmd.Wait did. It
// may be called any number of times, from any goroutine.
func (p *Process) Wait() error {
	<-p.done
	return p.err
}

// Exited reports whether the child has exited (without waiting).
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// State is the exit state once the child has exited (nil before).
func (p *Process) State() *os.ProcessState {
	if !p.Exited() {
		return nil
	}
	return p.cmd.ProcessState
}

func (p *Process) closeStdin() {
	if p.stdin != nil {
		_ = p.stdin.Close()
	}
}

// WaitFor reports whether the child exits within d.
func (p *Process) WaitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

// Stop runs the policy's stop sequence — stdin closed, StdinGrace, SIGTERM
// to the group, TermGrace, SIGKILL to the group — skipping the waits whose
// grace is 0, and returns once the child is reaped. Whatever ended the
// leader, its group is then killed so nothing it started survives it.
// Concurrent and repeated calls are safe: a later one waits for the first
// and returns its outcome.
func (p *Process) Stop() Outcome {
	p.stopMu.Lock()
	defer p.stopMu.Unlock()
	if p.Exited() {
		p.closeStdin()
		_ = kill(p.cmd.Process, p.group)
		return p.result(Exited, false)
	}
	p.closeStdin()
	out := Killed
	switch {
	case p.pol.StdinGrace > 0 && p.WaitFor(p.pol.StdinGrace):
		out = ExitedOnStdinClose
	case p.pol.TermGrace > 0 && terminate(p.cmd.Process, p.group) == nil && p.WaitFor(p.pol.TermGrace):
		out = ExitedOnTerm
	}
	_ = kill(p.cmd.Process, p.group)
	<-p.done
	return p.result(out, true)
}

// result records the outcome of the first stop that found the child
// running (unless a Kill came first) and returns the recorded one.
func (p *Process) result(o Outcome, ran bool) Outcome {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ran && p.outcome == Exited {
		p.outcome = o
	}
	return p.outcome
}

// Kill closes stdin, kills the child's process group at once (SIGKILL)
// and returns once the child is reaped, even while a Stop is waiting out
// a grace. A group already gone is not an error.
func (p *Process) Kill() {
	p.mu.Lock()
	if !p.Exited() && p.outcome == Exited {
		p.outcome = Killed
	}
	p.mu.Unlock()
	p.closeStdin()
	_ = kill(p.cmd.Process, p.group)
	<-p.done
	_ = kill(p.cmd.Process, p.group) // anything the leader left in its group
}
