package main

import (
	"context"
	"fmt"
	"os"

	"kitsoki/pkg/pluginkit"
)

func main() {
	if p := os.Getenv("TRIAGE_AGENT_PIDFILE"); p != "" {
		_ = os.WriteFile(p, []byte(fmt.Sprint(os.Getpid())), 0o644)
	}
	if err := pluginkit.Serve(answer); err != nil {
		fmt.Fprintln(os.Stderr, "triage-agent:", err)
		os.Exit(1)
	}
}

var meta = map[string]any{"transport": "subprocess", "rules": "triage-agent/1"}

func answer(_ context.Context, req *pluginkit.Request) (*pluginkit.Response, error) {
	switch req.Verb {
	case "decide":
		return pluginkit.Submit(triage(req.Prompt), meta)
	case "extract":
		return pluginkit.Submit(extractAlert(req.Prompt), meta)
	case "ask", "converse":
		return pluginkit.Submit(map[string]any{"answer": summarize(req.Prompt)}, meta)
	}
	return nil, fmt.Errorf("verb %q is not supported by triage-agent (decide, extract, ask, converse)", req.Verb)
}
