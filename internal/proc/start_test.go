//go:build unix

package proc

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// groupAlive reports whether a non-zombie process of group pgid exists
// (Linux /proc; elsewhere a kill(-pgid, 0) probe).
func groupAlive(pgid int) bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	if len(stats) == 0 {
		return syscall.Kill(-pgid, 0) == nil
	}
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(s[i+1:])
		if len(fields) > 3 && fields[0] != "Z" && fields[2] == strconv.Itoa(pgid) {
			return true
		}
	}
	return false
}

// alive reports whether pid runs (and is not a zombie).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		if _, err := os.Stat("/proc/self"); err != nil { // no /proc
			return syscall.Kill(pid, 0) == nil
		}
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}

// eventually waits (bounded by a generous deadline that only a failure
// reaches) for cond: the signal was sent, this waits for its delivery.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal(what)
		}
		time.Sleep(time.Millisecond)
	}
}

// startRole starts the test binary as role under pol (role added to its
// environment) and returns it with its first stdout line.
func startRole(t *testing.T, r string, pol Policy) (*Process, string) {
	t.Helper()
	cmd := self(t)
	out, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = w
	pol.Env.Vars = append(pol.Env.Vars, role(r)...)
	if pol.Env.Policy == EnvMinimal {
		pol.Env.Policy = EnvInherit // the race runtime and coverage need theirs
	}
	p, err := Start(context.Background(), cmd, pol)
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Kill(); out.Close() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("%s: no first line: %v", r, err)
	}
	return p, strings.TrimSpace(line)
}

// A child that ignores stdin's end and SIGTERM is killed once both graces
// are over, and its grandchild (which ignores SIGTERM too) dies with the
// group.
func TestStopEscalatesToKillForTheGroup(t *testing.T) {
	const stdinGrace, termGrace = 20 * time.Millisecond, 30 * time.Millisecond
	p, ready := startRole(t, "ignore", Policy{StdinPipe: true, StdinGrace: stdinGrace, TermGrace: termGrace})
	gc, err := strconv.Atoi(strings.TrimPrefix(ready, "ready "))
	if err != nil {
		t.Fatalf("first line %q", ready)
	}
	t0 := time.Now()
	if got := p.Stop(); got != Killed {
		t.Fatalf("Stop = %v, want killed (the child ignores everything else)", got)
	}
	if d := time.Since(t0); d < stdinGrace+termGrace {
		t.Fatalf("killed after %v, before both graces (%v) were over", d, stdinGrace+termGrace)
	}
	if !p.Exited() || p.State() == nil || p.State().Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("Stop returned before the child was reaped, or not by SIGKILL: %v", p.State())
	}
	eventually(t, "the grandchild outlived its group", func() bool { return !alive(gc) })
	eventually(t, "the process group still has live members", func() bool { return !groupAlive(p.group) })
	if got := p.Stop(); got != Killed {
		t.Fatalf("a second Stop = %v, want the first's outcome", got)
	}
}

// A child that exits on SIGTERM is not killed: the TERM grace is long, so
// the outcome cannot depend on how fast the signal is delivered.
func TestStopTermEndsAWellBehavedChild(t *testing.T) {
	p, _ := startRole(t, "block", Policy{StdinPipe: true, StdinGrace: time.Millisecond, TermGrace: 10 * time.Minute})
	if got := p.Stop(); got != ExitedOnTerm {
		t.Fatalf("Stop = %v, want exited on SIGTERM", got)
	}
	if sig := p.State().Sys().(syscall.WaitStatus).Signal(); sig != syscall.SIGTERM {
		t.Fatalf("ended by %v", sig)
	}
}

// A child that exits when its stdin closes gets no signal at all.
func TestStopStdinCloseEndsAReader(t *testing.T) {
	p, _ := startRole(t, "stdin", Policy{StdinPipe: true, StdinGrace: 10 * time.Minute, TermGrace: 10 * time.Minute})
	if got := p.Stop(); got != ExitedOnStdinClose {
		t.Fatalf("Stop = %v, want exited on stdin close", got)
	}
	if err := p.Wait(); err != nil || !p.State().Success() {
		t.Fatalf("exit: %v %v", err, p.State())
	}
}

// With no graces, Stop kills at once; a gone child's Stop and Kill are
// quiet.
func TestStopWithoutGracesKills(t *testing.T) {
	p, _ := startRole(t, "block", Policy{})
	if got := p.Stop(); got != Killed {
		t.Fatalf("Stop = %v", got)
	}
	p.Kill()
	q, _ := startRole(t, "stdin", Policy{StdinPipe: true})
	q.Stdin().Close()
	if err := q.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := q.Stop(); got != Exited {
		t.Fatalf("Stop of an exited child = %v", got)
	}
}

// Kill cuts a Stop that is waiting out a long grace short.
func TestKillDuringStop(t *testing.T) {
	p, _ := startRole(t, "ignore", Policy{StdinPipe: true, TermGrace: 10 * time.Minute})
	stopped := make(chan Outcome)
	go func() { stopped <- p.Stop() }()
	p.Kill()
	if got := <-stopped; got != Killed {
		t.Fatalf("Stop = %v", got)
	}
}

// A context that ends stops the child with the policy.
func TestContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := self(t)
	p, err := Start(ctx, cmd, Policy{Env: Env{Policy: EnvInherit, Vars: role("sleep")}})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	p.Wait()
	if p.State().Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the ended context did not stop the child: %v", p.State())
	}
}

func TestStartRefusesAnEnvironmentSetAside(t *testing.T) {
	cmd := self(t)
	cmd.Env = []string{"A=1"}
	if _, err := Start(context.Background(), cmd, Policy{}); err == nil || !strings.Contains(err.Error(), "Policy.Env") {
		t.Fatalf("err = %v", err)
	}
	cmd = self(t)
	cmd.Path = filepath.Join(t.TempDir(), "missing")
	if _, err := Start(context.Background(), cmd, Policy{StdinPipe: true, StderrTail: 10}); err == nil {
		t.Fatal("a missing program started")
	}
}

// childEnvOf runs the "env" role under e and returns what it saw.
func childEnvOf(t *testing.T, e Env) map[string]string {
	t.Helper()
	var out strings.Builder
	cmd := self(t)
	cmd.Stdout = &out
	e.Vars = append(e.Vars, role("env")...)
	p, err := Start(context.Background(), cmd, Policy{Env: e})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for l := range strings.SplitSeq(strings.TrimSpace(out.String()), "\n") {
		k, v, _ := strings.Cut(l, "=")
		if _, dup := m[k]; dup {
			t.Fatalf("%s twice in the child's environment", k)
		}
		m[k] = v
	}
	return m
}

func TestEnvPolicyReachesTheChild(t *testing.T) {
	t.Setenv("KITSOKI_PROC_SECRET", "hunter2")
	t.Setenv("LC_ALL", "C")
	t.Setenv("PATH", "/usr/bin:/bin")
	min := childEnvOf(t, Env{Policy: EnvMinimal, Vars: []Var{{Key: "MY", Value: "1"}, {Key: "PATH", Value: "/first", Prepend: true}}})
	if _, leak := min["KITSOKI_PROC_SECRET"]; leak {
		t.Fatal("a minimal child saw kitsoki's secret")
	}
	if min["MY"] != "1" || min["LC_ALL"] != "C" || min["PATH"] != "/first:/usr/bin:/bin" {
		t.Fatalf("minimal child env: %v", min)
	}
	full := childEnvOf(t, Env{Policy: EnvInherit, Vars: []Var{{Key: "PATH", Value: "/first", Prepend: true}, {Key: "KITSOKI_PROC_SECRET", Value: "mine"}}})
	if full["KITSOKI_PROC_SECRET"] != "mine" || full["PATH"] != "/first:/usr/bin:/bin" {
		t.Fatalf("inheriting child env: %v", full)
	}
}

// The stderr tail keeps only its bound, the end of what was written.
func TestStderrTailIsBounded(t *testing.T) {
	cmd := self(t)
	p, err := Start(context.Background(), cmd, Policy{Env: Env{Policy: EnvInherit, Vars: role("stderr 1048576")}, StderrTail: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	got := p.Tail().String()
	if len(got) != 1024 || !strings.HasSuffix(got, "xx\nend\n") {
		t.Fatalf("tail of %d bytes ending %q", len(got), got[max(0, len(got)-10):])
	}
	if p.Tail().Lines() != "end\n" {
		t.Fatalf("Lines = %q, want the cut first line dropped", p.Tail().Lines())
	}
}

// The child starts in a process group its sentinel already leads, so no
// moment exists in which the child (or what it starts) runs unguarded: a
// SIGKILL of kitsoki right after the child's start still ends the group.
func TestChildStartsInAGuardedGroup(t *testing.T) {
	p, _ := startRole(t, "block", Policy{StdinPipe: true})
	pgid, err := syscall.Getpgid(p.Pid())
	if err != nil {
		t.Fatal(err)
	}
	if pgid == p.Pid() || pgid != p.group || !alive(pgid) {
		t.Fatalf("child %d is in group %d (sentinel %d, alive %v): want the running sentinel's group", p.Pid(), pgid, p.group, alive(pgid))
	}
	p.Kill()
	eventually(t, "the process group still has live members", func() bool { return !groupAlive(pgid) })
}

// pgidOf is pid's process group (-1 when it is gone).
func pgidOf(pid int) int {
	g, err := syscall.Getpgid(pid)
	if err != nil {
		return -1
	}
	return g
}

// startHelper starts the test binary as role r outside Start (a stand-in
// for kitsoki) and returns it with the fields of its first stdout line.
func startHelper(t *testing.T, r string) (*exec.Cmd, []int) {
	t.Helper()
	helper := self(t)
	helper.Env = append(os.Environ(), childEnv+"="+r, "GORACE=atexit_sleep_ms=0")
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { helper.Process.Kill(); helper.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("%s: %v", r, err)
	}
	var pids []int
	for f := range strings.FieldsSeq(line) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("%s said %q", r, line)
		}
		pids = append(pids, n)
		t.Cleanup(func() { syscall.Kill(n, syscall.SIGKILL) }) // what a failure leaves
	}
	return helper, pids
}

// A SIGKILL of kitsoki (the helper) ends every group it started: the
// child's grandchild, which the parent-death signal never reaches and
// which ignores SIGTERM, is killed by its group's sentinel.
func TestSIGKILLOfTheParentEndsTheGroup(t *testing.T) {
	helper, pids := startHelper(t, "orphan")
	if len(pids) != 2 {
		t.Fatalf("helper said %v", pids)
	}
	child, gc := pids[0], pids[1]
	if !alive(child) || !alive(gc) || pgidOf(gc) != pgidOf(child) {
		t.Fatalf("child %d (alive %v, group %d), grandchild %d (alive %v, group %d)", child, alive(child), pgidOf(child), gc, alive(gc), pgidOf(gc))
	}
	helper.Process.Kill()
	helper.Wait()
	eventually(t, "the grandchild outlived the SIGKILLed parent", func() bool { return !alive(gc) })
	eventually(t, "the child outlived the SIGKILLed parent", func() bool { return !alive(child) })
}

// BenchmarkGuard is the cost a sentinel adds to each child's start: start
// it, then kill and reap it.
func BenchmarkGuard(b *testing.B) {
	for b.Loop() {
		g := newGuard()
		if g == nil {
			b.Skip("no sh")
		}
		g.release()
	}
}
