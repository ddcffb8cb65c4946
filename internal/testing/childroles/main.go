package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// roleEnv selects the child role (internal/childproc's tests set it).
const roleEnv = "KITSOKI_CHILDPROC_TEST_ROLE"

// self is this program, which the grandchild roles start again.
var self = os.Args[0]

func main() {
	os.Exit(childRole(os.Getenv(roleEnv)))
}

// childRole is one behaviour internal/childproc's tests start as a real
// subprocess. It reads requests line by line; the request text selects what it does:
//
//	pid             answer "pid=<pid> n=<calls so far>"
//	crash           write "boom <secret>" to stderr, exit 3
//	levels          write level-tagged lines, then a panic, to stderr, exit 2
//	partial         write half an answer line, exit 1
//	exit            answer, then exit 0 (the next call needs a new child)
//	quit            exit 0 without answering
//	hang            never answer
//	big:N           answer a line of N 'x's
//	blank           write blank lines, then answer "after blank"
//	notify          write a notification line, then answer
//	twice           answer "first", then "second" at once
//	twice-at-once   write "first\nsecond\n" in one write (the second
//	                answer is in the pipe as the first is read)
//	half-after      write "first\n" and the start of another line in one
//	                write
//	flood           answer "first", then write "more" lines until stdout
//	                fails
//	stale           write "stale: an old answer", then answer "fresh"
//	grandchild:F    start a sleeping grandchild in its group, write its
//	                pid to file F, never answer
//	ignore-stdin    (as a role) answer "early" at once without reading,
//	                then hang
//	ignore-stdin-exit (as a role) close stdin unread, then answer
//	                "early" and exit 0
//	crash-holding:F start a sleeping grandchild in its group that holds
//	                its stdout, write its pid to F, write "boom <secret>"
//	                to stderr, exit 3
//	crash-detached:F the same with the grandchild in a session of its own
//	                (setsid, unix), out of reach of a group kill
//	anything else   echo it back
func childRole(role string) int {
	if role == "ignore-stdin" {
		fmt.Println("early")
		for {
			time.Sleep(time.Hour) // not select{}: the runtime would report a deadlock
		}
	}
	if role == "ignore-stdin-exit" {
		os.Stdin.Close() // kitsoki's write of the request fails
		time.Sleep(50 * time.Millisecond)
		fmt.Println("early")
		os.Exit(0)
	}
	if role == "sleep" {
		for {
			time.Sleep(time.Hour)
		}
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	calls := 0
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return 0
		}
		calls++
		req := strings.TrimSuffix(line, "\n")
		switch {
		case req == "pid":
			fmt.Printf("pid=%d n=%d\n", os.Getpid(), calls)
		case req == "crash":
			fmt.Fprintln(os.Stderr, "boom "+os.Getenv("CHILD_SECRET"))
			os.Exit(3)
		case req == "levels":
			fmt.Fprint(os.Stderr, "plain chatter\n2026/12/03 10:00:00 [WARN] low disk\n[ERROR] model not loaded\n"+
				`{"@level":"info","@message":"hclog line"}`+"\n"+`{"level":"ERROR","msg":"slog line"}`+"\n"+
				"panic: boom\n\ngoroutine 1 [running]:\n")
			os.Exit(2)
		case req == "partial":
			fmt.Print(`{"jsonrpc":"2.0","id":`)
			os.Exit(1)
		case req == "quit": // read a request and exit 0 without answering it
			os.Exit(0)
		case req == "exit":
			fmt.Println("bye")
			os.Exit(0)
		case req == "hang":
			for {
				time.Sleep(time.Hour)
			}
		case strings.HasPrefix(req, "big:"):
			var n int
			fmt.Sscan(strings.TrimPrefix(req, "big:"), &n)
			w := bufio.NewWriter(os.Stdout)
			w.WriteString(strings.Repeat("x", n) + "\n")
			w.Flush()
		case req == "blank":
			fmt.Print("\n  \n\r\n")
			fmt.Println("after blank")
		case req == "twice":
			fmt.Println("first")
			fmt.Println("second")
		case req == "twice-at-once":
			os.Stdout.Write([]byte("first\nsecond\n"))
		case req == "flood":
			fmt.Println("first")
			for {
				if _, err := fmt.Println("more"); err != nil {
					return 0
				}
			}
		case req == "half-after":
			os.Stdout.Write([]byte("first\n{\"unasked\":"))
		case req == "stale":
			fmt.Println("stale: an old answer")
			fmt.Println("fresh")
		case req == "notify":
			fmt.Println(`{"method":"note"}`)
			fmt.Println("answer")
		case strings.HasPrefix(req, "crash-holding:"), strings.HasPrefix(req, "crash-detached:"):
			gc := exec.Command(self)
			gc.Env = append(os.Environ(), roleEnv+"=sleep")
			gc.Stdout = os.Stdout // holds the child's stdout open
			if strings.HasPrefix(req, "crash-detached:") {
				setsid(gc)
			}
			if err := gc.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			_, file, _ := strings.Cut(req, ":")
			os.WriteFile(file, []byte(fmt.Sprint(gc.Process.Pid)), 0o644)
			fmt.Fprintln(os.Stderr, "boom "+os.Getenv("CHILD_SECRET"))
			os.Exit(3)
		case strings.HasPrefix(req, "grandchild:"):
			gc := exec.Command(self)
			gc.Env = append(os.Environ(), roleEnv+"=sleep")
			if err := gc.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			os.WriteFile(strings.TrimPrefix(req, "grandchild:"), []byte(fmt.Sprint(gc.Process.Pid)), 0o644)
			for {
				time.Sleep(time.Hour)
			}
		default:
			fmt.Println(req)
		}
	}
}
