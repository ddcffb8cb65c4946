// Command triage-agent is a small, deterministic kitsoki agent plugin for the
// examples: a subprocess plugin built on kitsoki/pkg/pluginkit (the contract:
// newline-delimited JSON-RPC 2.0, method agent.ask) whose answers come from
// fixed rules over the rendered prompt — no model, no network.
//
// Verbs:
//
//	decide   triage a CI failure: {action, category, reason, confidence, failing_tests}
//	extract  pull {severity, service} out of an alert text
//	ask      a one-line answer: {answer}
//
// It logs to stderr only and exits when stdin closes or on SIGTERM. When
// TRIAGE_AGENT_PIDFILE is set it writes its pid there at start (tests use it
// to check that kitsoki stops its plugins).
package main

import (
	"context"
	"fmt"
	"io"
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

// serve answers requests from in until it closes (the tests' entry point).
func serve(in io.Reader, out io.Writer) error {
	return pluginkit.ServeIO(context.Background(), in, out, answer)
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
