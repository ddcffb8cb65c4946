package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"kitsoki/internal/testing/claudeargs"
)

func main() {
	opts, err := claudeargs.Parse(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	model := opts["--model"]
	in, _ := io.ReadAll(os.Stdin)
	prompt := string(in)
	env := map[string]any{"type": "result", "session_id": "fake", "num_turns": 1, "duration_ms": 5,
		"modelUsage": map[string]any{"claude-" + model: map[string]any{}}}
	intent := "accept"
	if strings.Contains(prompt, `merged at ""`) {
		intent = "refine"
	}
	switch model {
	case "opus":
		env["total_cost_usd"] = 0.01
	case "haiku":
		intent = "accept"
		env["total_cost_usd"] = 0.0002
	default:
		env["is_error"] = true
		env["result"] = fmt.Sprintf("unknown model %q", model)
		b, _ := json.Marshal(env)
		fmt.Println(string(b))
		return
	}
	ans, _ := json.Marshal(map[string]any{"intent": intent, "confidence": 0.9})
	env["result"] = "```json\n" + string(ans) + "\n```"
	b, _ := json.Marshal(env)
	fmt.Println(string(b))
}
