package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"time"

	"kitsoki/internal/testing/claudeargs"
)

func main() {
	stdin, _ := io.ReadAll(os.Stdin)
	opts, err := claudeargs.Parse(os.Args[1:])
	if p := os.Getenv("FAKE_CLAUDE_RECORD"); p != "" {
		b, _ := json.Marshal(map[string]any{"args": os.Args[1:], "opts": opts, "stdin": string(stdin), "env": os.Environ()})
		os.WriteFile(p, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	model := cmp.Or(opts["--model"], "claude-sonnet-4-5-20250929")
	answer := os.Getenv("FAKE_CLAUDE_ANSWER")
	if answer == "" {
		answer = `{"answer":"stand-in"}`
	}
	env := map[string]any{
		"type":            "result",
		"subtype":         "success",
		"is_error":        false,
		"duration_ms":     1234,
		"duration_api_ms": 1200,
		"num_turns":       1,
		"session_id":      "5f3c1a2e-0000-4000-8000-000000000001",
		"total_cost_usd":  0.0123,
		"usage": map[string]any{
			"input_tokens":                11,
			"cache_creation_input_tokens": 2000,
			"cache_read_input_tokens":     3000,
			"output_tokens":               42,
			"server_tool_use":             map[string]any{"web_search_requests": 0},
			"service_tier":                "standard",
		},
		"modelUsage": map[string]any{
			model: map[string]any{"inputTokens": 11, "outputTokens": 42, "costUSD": 0.0123},
		},
		"permission_denials": []any{},
		"uuid":               "9b1d0c2a-0000-4000-8000-000000000002",
	}
	if mu := os.Getenv("FAKE_CLAUDE_MODEL_USAGE"); mu != "" {
		env["modelUsage"] = json.RawMessage(mu)
	}
	switch os.Getenv("FAKE_CLAUDE_MODE") {
	case "", "fenced":
		env["result"] = "Here is my answer:\n\n```json\n" + answer + "\n```\n"
	case "plain":
		env["result"] = answer
	case "structured":
		env["result"] = "Submitted."
		env["structured_output"] = json.RawMessage(answer)
	case "is_error":
		env["subtype"] = "error_during_execution"
		env["is_error"] = true
		env["result"] = "API Error: 401 invalid x-api-key"
		b, _ := json.Marshal(env)
		os.Stdout.Write(append(b, '\n'))
		os.Exit(1)
	case "crash":
		fmt.Fprintln(os.Stderr, "fakeclaude: cannot reach the API (stand-in crash)")
		os.Exit(2)
	case "not_json":
		fmt.Println("this is not a JSON envelope")
		return
	case "hang":
		time.Sleep(time.Hour)
	case "sleeper": // the process leave_child leaves behind
		time.Sleep(time.Hour)
		return
	case "leave_child": // start a process in its group that let go of the output, answer, exit
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), "FAKE_CLAUDE_MODE=sleeper")
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "fakeclaude:", err)
			os.Exit(2)
		}
		os.WriteFile(os.Getenv("FAKE_CLAUDE_PIDFILE"), []byte(strconv.Itoa(c.Process.Pid)), 0o644)
		env["result"] = answer
	}
	b, _ := json.Marshal(env)
	os.Stdout.Write(append(b, '\n'))
}
