// Command triage-agent is a small, deterministic kitsoki agent plugin for the
// examples: a subprocess plugin speaking the agent contract (newline-delimited
// JSON-RPC 2.0, method agent.ask, one reply line per request) whose answers
// come from fixed rules over the rendered prompt — no model, no network.
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
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  askRequest      `json:"params"`
}

type askRequest struct {
	Verb      string         `json:"verb"`
	Prompt    string         `json:"prompt"`
	StatePath string         `json:"state_path"`
	CallID    string         `json:"call_id"`
	With      map[string]any `json:"with"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

func main() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	go func() { <-sig; os.Exit(0) }()
	if p := os.Getenv("TRIAGE_AGENT_PIDFILE"); p != "" {
		_ = os.WriteFile(p, []byte(fmt.Sprint(os.Getpid())), 0o644)
	}
	if err := serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "triage-agent:", err)
		os.Exit(1)
	}
}

// serve answers requests from in until it closes.
func serve(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	w := bufio.NewWriter(out)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			return fmt.Errorf("unmarshal request: %v", err)
		}
		resp := response{JSONRPC: "2.0", ID: req.ID}
		if req.Method != "agent.ask" {
			resp.Error = &rpcError{Code: -32601, Message: "method not found: " + req.Method}
		} else {
			sub, err := answer(req.Params)
			if err != nil {
				resp.Error = &rpcError{Code: -32000, Message: err.Error()}
			} else {
				resp.Result = map[string]any{
					"submission": sub,
					"meta":       map[string]any{"transport": "subprocess", "rules": "triage-agent/1"},
				}
			}
		}
		b, err := json.Marshal(resp)
		if err != nil {
			return err
		}
		w.Write(b)
		w.WriteByte('\n')
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return sc.Err()
}

func answer(req askRequest) (any, error) {
	switch req.Verb {
	case "decide":
		return triage(req.Prompt), nil
	case "extract":
		return extractAlert(req.Prompt), nil
	case "ask", "converse":
		return map[string]any{"answer": summarize(req.Prompt)}, nil
	}
	return nil, fmt.Errorf("verb %q is not supported by triage-agent (decide, extract, ask, converse)", req.Verb)
}
