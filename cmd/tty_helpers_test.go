//go:build linux

package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"
)

// ptyProcess is the real kitsoki binary started with a pseudo-terminal as
// its controlling terminal (stdin and stderr on the terminal), as a user
// runs it: Ctrl-C written to the terminal reaches it as SIGINT through the
// line discipline.
type ptyProcess struct {
	cmd    *exec.Cmd
	master *os.File
	stdout bytes.Buffer

	mu   sync.Mutex
	tty  bytes.Buffer // everything written to the terminal
	read chan struct{}
}

func startOnPTY(t *testing.T, bin string, env []string, args ...string) *ptyProcess {
	t.Helper()
	return startOnPTYWith(t, bin, env, false, args...)
}

// startOnPTYWith also puts stdout on the terminal when stdoutToo.
func startOnPTYWith(t *testing.T, bin string, env []string, stdoutToo bool, args ...string) *ptyProcess {
	t.Helper()
	m, s := trOpenPTY(t)
	p := &ptyProcess{master: m, read: make(chan struct{})}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Env = append(os.Environ(), append([]string{"TERM=xterm", "NO_COLOR="}, env...)...)
	p.cmd.Stdin, p.cmd.Stderr = s, s
	p.cmd.Stdout = &p.stdout
	if stdoutToo {
		p.cmd.Stdout = s
	}
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.Close() // the child holds it
	go func() {
		defer close(p.read)
		buf := make([]byte, 4096)
		for {
			n, err := m.Read(buf)
			p.mu.Lock()
			p.tty.Write(buf[:n])
			p.mu.Unlock()
			if err != nil { // EIO once the child side is closed
				return
			}
		}
	}()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
		m.Close()
	})
	return p
}

func (p *ptyProcess) raw() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tty.String()
}

// waitFor polls until the terminal shows text satisfying ok (the
// condition, not a sleep, decides; the deadline only bounds a hang).
func (p *ptyProcess) waitFor(t *testing.T, what string, ok func(raw string) bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !ok(p.raw()) {
		if time.Now().After(deadline) {
			t.Fatalf("terminal never showed %s; it shows:\n%q", what, p.raw())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// wait waits for the process and the terminal's last bytes; it returns the
// exit code.
func (p *ptyProcess) wait(t *testing.T) int {
	t.Helper()
	err := p.cmd.Wait()
	<-p.read
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0
}
