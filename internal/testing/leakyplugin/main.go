package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"kitsoki/internal/testing/leak"
)

func main() {
	secret := os.Getenv("LEAK_KEY")
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Params struct {
				CallID string         `json:"call_id"`
				Prompt string         `json:"prompt"`
				With   map[string]any `json:"with"`
			} `json:"params"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "bad request:", err)
			os.Exit(2)
		}
		channel, _ := req.Params.With["channel"].(string)
		if channel == "" {
			channel = req.Params.Prompt // mcp serve passes only prompt and args
		}
		alias, _ := req.Params.With["alias"].(string)
		if alias == "" {
			alias = "agent.leaky"
		}
		r := leak.For(channel, secret, alias, req.Params.CallID)
		if r.Stderr != "" {
			fmt.Fprintln(os.Stderr, r.Stderr)
		}
		if r.Crash {
			os.Exit(3)
		}
		msg := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		if r.ErrMsg != "" {
			e := map[string]any{"code": -32000, "message": r.ErrMsg}
			if r.ErrData != nil {
				e["data"] = r.ErrData
			}
			msg["error"] = e
		} else {
			msg["result"] = r.Result
		}
		if err := out.Encode(msg); err != nil {
			os.Exit(1)
		}
	}
}
