package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
)

type call struct {
	ID      json.RawMessage `json:"id"`
	Type    string          `json:"type"`
	Handler string          `json:"handler"`
	Served  string          `json:"served"`
	Op      string          `json:"op"`
	Args    map[string]any  `json:"args"`
	Env     map[string]any  `json:"env"`
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	out := json.NewEncoder(os.Stdout)
	n := 0
	var prevID json.RawMessage // the id of the last "late-first" call
	for sc.Scan() {
		var c call
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, "bad request:", err)
			os.Exit(3)
		}
		n++
		mode, _ := c.Args["mode"].(string)
		switch mode {
		case "domain":
			_ = out.Encode(map[string]any{"data": map[string]any{"exit_code": 3, "stderr": "E!"}, "error": "push rejected"})
		case "infra":
			_ = out.Encode(map[string]any{"infra_error": "no credentials for origin"})
		case "garbage":
			fmt.Println("this is not json")
		case "twice": // the same call answered twice
			_ = out.Encode(map[string]any{"data": map[string]any{"answer": "first"}})
			_ = out.Encode(map[string]any{"data": map[string]any{"answer": "second"}})
		case "twice-at-once": // both answers in one write: the second is in the pipe as the first is read
			os.Stdout.Write([]byte(`{"data":{"answer":"first"}}` + "\n" + `{"data":{"answer":"second"}}` + "\n"))
		case "late-first": // answer echoing the id, and remember it
			prevID = c.ID
			_ = out.Encode(map[string]any{"id": c.ID, "data": map[string]any{"answer": "first"}})
		case "late-second":
			// With this call's request read, a late second answer to the
			// "late-first" call (its id echoed), then this call's own.
			_ = out.Encode(map[string]any{"id": prevID, "data": map[string]any{"answer": "stale"}})
			_ = out.Encode(map[string]any{"id": c.ID, "data": map[string]any{"answer": "fresh"}})
		case "wrong-id": // an id no request had
			_ = out.Encode(map[string]any{"id": 1 << 40, "data": map[string]any{"answer": "wrong"}})
		case "chatty":
			// a log line on stdout before the answer
			fmt.Println("debug: answering")
			_ = out.Encode(map[string]any{"data": map[string]any{"chatty": true}})
		case "crash":
			fmt.Fprintln(os.Stderr, "provider exploding on purpose")
			os.Exit(7)
		case "crash-once":
			marker, _ := c.Args["marker"].(string)
			if _, err := os.Stat(marker); err != nil {
				_ = os.WriteFile(marker, []byte("x"), 0o644)
				os.Exit(8)
			}
			_ = out.Encode(map[string]any{"data": map[string]any{"recovered": true, "pid": os.Getpid()}})
		case "clarify":
			_ = out.Encode(map[string]any{"data": map[string]any{"asked": true}, "delay_ms": 1500, "clarification": map[string]any{"question": "which remote?"}})
		case "echo_secret": // the value of env var args.var as a data key and value and in a clarification
			v := os.Getenv(fmt.Sprint(c.Args["var"]))
			_ = out.Encode(map[string]any{"data": map[string]any{v: "key", "val": v}, "error": "denied for " + v,
				"clarification": map[string]any{"question": "use " + v + "?", "data": map[string]any{v: v}}})
		case "echo_line": // args.line written as the answer, as it is
			line, _ := c.Args["line"].(string)
			fmt.Fprintln(os.Stdout, line)
		case "hang":
			// Never answer: write the pid to args.ready (a FIFO the test
			// reads: the call has arrived), then read on until stdin ends.
			if ready, _ := c.Args["ready"].(string); ready != "" {
				if err := os.WriteFile(ready, []byte(strconv.Itoa(os.Getpid())+"\n"), 0); err != nil {
					fmt.Fprintln(os.Stderr, "hang:", err)
					os.Exit(4)
				}
			}
			for sc.Scan() {
			}
			return
		default:
			_ = out.Encode(map[string]any{"data": map[string]any{
				"handler": c.Handler, "served": c.Served, "op": c.Op, "args": c.Args,
				"state": c.Env["state"], "world": c.Env["world"], "calls": n, "pid": os.Getpid(),
			}})
		}
	}
}
