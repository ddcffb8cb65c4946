package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

func main() {
	mode := ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	if mode == "record-env" {
		// record-env NAME FILE: write, as it starts, what NAME holds in
		// its environment to FILE ("NAME=unset" when it has none).
		v, ok := os.LookupEnv(os.Args[2])
		if !ok {
			v = "unset"
		}
		if err := os.WriteFile(os.Args[3], []byte("started\n"+os.Args[2]+"="+v+"\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	calls := 0
	var firstID json.RawMessage // the "late" mode's first request id
	for sc.Scan() {
		calls++
		var req struct {
			ID      json.RawMessage `json:"id"`
			Point   string          `json:"point"`
			Payload map[string]any  `json:"payload"`
		}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "bad request:", err)
			os.Exit(2)
		}
		var out any
		switch mode {
		case "rewrite":
			p, _ := req.Payload["prompt"].(string)
			out = map[string]any{"outcome": "continue", "payload": map[string]any{"prompt": p + " [checked by testhook]"}}
		case "reroute":
			// reroute ALIAS: send the call to ALIAS and mark its with: block.
			w, _ := req.Payload["with"].(map[string]any)
			if w == nil {
				w = map[string]any{}
			}
			w["hooked"] = "by testhook"
			out = map[string]any{"outcome": "continue", "payload": map[string]any{"alias": os.Args[2], "with": w}}
		case "late":
			// Call 1 is answered echoing its id; with call 2's request
			// read, a late second answer to call 1 (its id) comes before
			// call 2's own; later calls echo their id.
			if calls == 1 {
				firstID = req.ID
				out = map[string]any{"id": req.ID, "outcome": "continue", "payload": map[string]any{"prompt": "first"}}
				break
			}
			if calls == 2 {
				_ = json.NewEncoder(os.Stdout).Encode(map[string]any{"id": firstID, "outcome": "continue", "payload": map[string]any{"prompt": "stale"}})
			}
			out = map[string]any{"id": req.ID, "outcome": "continue", "payload": map[string]any{"prompt": fmt.Sprint("call ", calls)}}
		case "veto":
			out = map[string]any{"outcome": "halt", "reason": "policy says no"}
		case "crash":
			fmt.Fprintln(os.Stderr, "testhook: boom")
			os.Exit(3)
		case "crash-echo-env": // crash-echo-env NAME: print NAME's value on stderr, then crash
			fmt.Fprintf(os.Stderr, "testhook: %s=%s\n", os.Args[2], os.Getenv(os.Args[2]))
			os.Exit(3)
		case "crash-once":
			marker := os.Args[2]
			if _, err := os.Stat(marker); err != nil {
				_ = os.WriteFile(marker, []byte("x"), 0o644)
				os.Exit(3)
			}
			out = map[string]any{"outcome": "continue"}
		case "sleep":
			time.Sleep(30 * time.Second)
			out = map[string]any{"outcome": "continue"}
		case "unterminated":
			// the answer without its newline, then exit
			fmt.Print(`{"outcome":"continue","payload":{"prompt":"unterminated"}}`)
			os.Exit(0)
		case "blank-lines":
			fmt.Print("\n \r\n\t\n")
			out = map[string]any{"outcome": "continue", "payload": map[string]any{"prompt": "after blank lines"}}
		case "garbage":
			fmt.Println("this is not json")
			continue
		case "twice": // the same answer twice
			fmt.Println(`{"outcome":"continue","payload":{"prompt":"first answer"}}`)
			out = map[string]any{"outcome": "continue", "payload": map[string]any{"prompt": "second answer"}}
		case "twice-at-once": // both answers in one write: the second is in the pipe as the first is read
			os.Stdout.Write([]byte(`{"outcome":"continue","payload":{"prompt":"first answer"}}` + "\n" + `{"outcome":"continue","payload":{"prompt":"second answer"}}` + "\n"))
			continue
		case "pid":
			out = map[string]any{"outcome": "continue", "payload": map[string]any{"prompt": fmt.Sprintf("pid=%d call=%d", os.Getpid(), calls)}}
		default:
			out = map[string]any{"outcome": "continue"}
		}
		b, _ := json.Marshal(out)
		fmt.Println(string(b))
	}
}
