package proc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childEnv selects a child role when the test binary re-executes itself.
const childEnv = "KITSOKI_PROC_TEST_CHILD"

// TestMain runs a child role (see child) instead of the tests when asked.
func TestMain(m *testing.M) {
	if role := os.Getenv(childEnv); role != "" {
		os.Exit(child(role))
	}
	os.Exit(m.Run())
}

// child is one role the tests start as a real subprocess:
//
//	block        print "ready", wait for a signal (SIGTERM kills it)
//	ignore       ignore SIGTERM (inherited by what it starts), start a
//	             "sleep" grandchild in its group, print "ready <pid>", wait
//	sleep        wait for a signal
//	stdin        print "ready", read stdin to EOF, exit 0
//	env          print the environment, one variable a line
//	stderr N     write N bytes of 'x' to stderr, then "\nend\n"
//	pdeath       start a "sleep" grandchild with Start, print its pid, wait
//	orphan       start "ignore" with Start, print "<its pid> <its
//	             grandchild's pid>", wait
func child(r string) int {
	switch r {
	case "orphan":
		return startOrphan()
	case "block", "sleep":
		if r == "block" {
			fmt.Println("ready")
		}
		for {
			time.Sleep(time.Hour) // not select{}: with no other goroutine the runtime reports a deadlock and exits
		}
	case "ignore":
		signal.Ignore(syscall.SIGTERM)
		gc := exec.Command(os.Args[0])
		gc.Env = append(os.Environ(), childEnv+"=sleep")
		if err := gc.Start(); err != nil {
			fmt.Println("ERR", err)
			return 1
		}
		fmt.Println("ready", gc.Process.Pid)
		for {
			time.Sleep(time.Hour) // not select{}: with no other goroutine the runtime reports a deadlock and exits
		}
	case "stdin":
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		return 0
	case "env":
		for _, kv := range os.Environ() {
			fmt.Println(kv)
		}
		return 0
	case "pdeath":
		cmd := exec.Command(os.Args[0])
		p, err := Start(context.Background(), cmd, Policy{Env: Env{Policy: EnvInherit, Vars: role("sleep")}})
		if err != nil {
			fmt.Println("ERR", err)
			return 1
		}
		fmt.Println(p.Pid())
		for {
			time.Sleep(time.Hour) // not select{}: with no other goroutine the runtime reports a deadlock and exits
		}
	}
	if n, ok := strings.CutPrefix(r, "stderr "); ok {
		var size int
		fmt.Sscan(n, &size)
		w := bufio.NewWriter(os.Stderr)
		for range size {
			w.WriteByte('x')
		}
		w.WriteString("\nend\n")
		w.Flush()
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown child role", r)
	return 2
}

// startOrphan plays the orphan role.
func startOrphan() int {
	cmd := exec.Command(os.Args[0])
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Println("ERR", err)
		return 1
	}
	p, err := Start(context.Background(), cmd, Policy{Env: Env{Policy: EnvInherit, Vars: role("ignore")}})
	if err != nil {
		fmt.Println("ERR", err)
		return 1
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	gc, ok := strings.CutPrefix(strings.TrimSpace(line), "ready ")
	if err != nil || !ok {
		fmt.Println("ERR", line, err)
		return 1
	}
	fmt.Println(p.Pid(), gc)
	for {
		time.Sleep(time.Hour) // not select{}: with no other goroutine the runtime reports a deadlock and exits
	}
}

// self is a command re-running the test binary as the child role.
func self(t *testing.T) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exec.Command(exe)
}

// role is the Policy.Env edits that make the child play r (and, under
// -race, exit without the race runtime's 1 s pause).
func role(r string) []Var {
	return []Var{{Key: childEnv, Value: r}, {Key: "GORACE", Value: "atexit_sleep_ms=0"}}
}
