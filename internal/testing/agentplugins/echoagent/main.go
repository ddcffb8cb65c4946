package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"kitsoki/internal/testing/agentplugins/echo"
)

type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

var (
	defaultFault = flag.String("fault", os.Getenv("KITSOKI_TEST_FAULT"), "fault for every request")
	defaultAlias = flag.String("alias", os.Getenv("KITSOKI_TEST_ALIAS"), "the plugin's alias")
)

func main() {
	flag.Parse()
	if os.Getenv("ECHO_ROLE") == "sleeper" {
		time.Sleep(time.Hour)
		return
	}
	ignoreTerm := os.Getenv("ECHO_IGNORE_SIGTERM") == "1"
	if ignoreTerm {
		signal.Ignore(syscall.SIGTERM)
	}
	if s := os.Getenv("ECHO_STDERR"); s != "" {
		fmt.Fprintf(os.Stderr, "echoagent: start-up: %s\n", s)
	}
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			if err != io.EOF || len(line) == 0 {
				if ignoreTerm {
					time.Sleep(time.Hour)
				}
				return
			}
		}
		var req rpcRequest
		if err := json.Unmarshal(line, &req); err != nil {
			fmt.Fprintf(os.Stderr, "echoagent: unmarshal request: %v\n", err)
			os.Exit(1)
		}
		handle(&req, line, out)
		if err := out.Flush(); err != nil {
			fmt.Fprintf(os.Stderr, "echoagent: write: %v\n", err)
			os.Exit(1)
		}
	}
}

func write(out *bufio.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "echoagent: marshal: %v\n", err)
		os.Exit(1)
	}
	out.Write(b)
	out.WriteByte('\n')
}

func handle(req *rpcRequest, line []byte, out *bufio.Writer) {
	if req.Method != "agent.ask" {
		write(out, rpcResponse{JSONRPC: "2.0", ID: req.ID, Error: &rpcError{Code: -32601, Message: "method not found: " + req.Method}})
		return
	}
	var ask echo.Request
	if err := json.Unmarshal(req.Params, &ask); err != nil {
		write(out, rpcResponse{JSONRPC: "2.0", ID: req.ID, Error: &rpcError{Code: -32602, Message: "invalid params: " + err.Error()}})
		return
	}
	if p, _ := ask.With["received"].(string); p != "" {
		os.WriteFile(p, nil, 0o644) // the test waits for this, not for a guessed delay
	}
	fault := echo.Fault(&ask, *defaultFault)
	alias := echo.Alias(&ask, *defaultAlias)
	name, arg := echo.FaultArg(fault)
	switch name {
	case "crash":
		msg := os.Getenv("ECHO_STDERR")
		if msg == "" {
			msg = "crashing on purpose"
		}
		fmt.Fprintf(os.Stderr, "echoagent: %s\n", msg)
		os.Exit(3)
	case "partial":
		os.Stdout.WriteString(`{"jsonrpc":"2.0","id":`)
		os.Exit(1)
	case "garbage":
		out.WriteString("hello from a plugin that logs to stdout\n")
		return
	case "hang":
		time.Sleep(time.Hour)
	case "late":
		echo.SleepLate(&ask)
	case "slow":
		ms, _ := strconv.Atoi(arg)
		time.Sleep(time.Duration(ms) * time.Millisecond)
	case "rpc_error":
		write(out, rpcResponse{JSONRPC: "2.0", ID: req.ID, Error: &rpcError{Code: -32000, Message: "deliberate failure", Data: map[string]any{"why": "test"}}})
		return
	case "wrong_id":
		n, _ := strconv.ParseInt(string(req.ID), 10, 64)
		write(out, rpcResponse{JSONRPC: "2.0", ID: json.RawMessage(strconv.FormatInt(n+1000, 10)), Result: echo.Answer(&ask, fault, alias, "subprocess", nil)})
		return
	case "bare_reply": // no "jsonrpc", no "id": the existing engine accepts it
		b, _ := json.Marshal(map[string]any{"result": echo.Answer(&ask, fault, alias, "subprocess", nil)})
		out.Write(append(b, '\n'))
		return
	case "no_result":
		write(out, rpcResponse{JSONRPC: "2.0", ID: req.ID})
		return
	case "grandchild":
		self, _ := os.Executable()
		c := exec.Command(self)
		c.Env = append(os.Environ(), "ECHO_ROLE=sleeper")
		if err := c.Start(); err != nil {
			fmt.Fprintf(os.Stderr, "echoagent: start grandchild: %v\n", err)
			os.Exit(1)
		}
		if p, _ := ask.With["pidfile"].(string); p != "" {
			os.WriteFile(p, []byte(strconv.Itoa(c.Process.Pid)), 0o644)
		}
		time.Sleep(time.Hour)
	case "echo_request":
		resp := echo.Answer(&ask, fault, alias, "subprocess", nil)
		b, _ := json.Marshal(map[string]string{"line": string(line)})
		resp.Submission = b
		addCost(resp.Meta)
		write(out, rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: resp})
		return
	case "flood_stdout": // an answer line that never ends
		chunk := bytes.Repeat([]byte("x"), 1<<16)
		for {
			if _, err := os.Stdout.Write(chunk); err != nil {
				os.Exit(1)
			}
		}
	case "flood_stderr": // <MiB> of stderr with no newline, then the answer
		mib, _ := strconv.Atoi(arg)
		chunk := bytes.Repeat([]byte("e"), 1<<20)
		for range mib {
			os.Stderr.Write(chunk)
		}
	case "dup_id": // the same answer twice, both with the request's id
		resp := rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: echo.Answer(&ask, fault, alias, "subprocess", nil)}
		write(out, resp)
		write(out, resp)
		return
	case "dup_bare": // the same answer twice, neither with an id
		b, _ := json.Marshal(map[string]any{"result": echo.Answer(&ask, fault, alias, "subprocess", nil)})
		out.Write(append(b, '\n'))
		out.Write(append(b, '\n'))
		return
	case "stale_first": // a reply to an earlier request, then this one's answer
		n, _ := strconv.ParseInt(string(req.ID), 10, 64)
		write(out, rpcResponse{JSONRPC: "2.0", ID: json.RawMessage(strconv.FormatInt(n-1, 10)), Result: echo.Response{Submission: json.RawMessage(`{"stale":true}`)}})
		resp := echo.Answer(&ask, fault, alias, "subprocess", nil)
		resp.Meta["pid"] = os.Getpid()
		write(out, rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: resp})
		return
	case "escaped_secret": // echo the value of env var <arg>, every byte \u-escaped, everywhere
		v := uEscape(os.Getenv(arg))
		callID, _ := json.Marshal(ask.CallID)
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"submission":{"said":"key %s here","%s":1},"meta":{"%s":"%s"},`+
			`"sub_events":[{"kind":"%s.tool","call_id":%s,"payload":{"cmd":"%s"}}],"transcript":{"format":"text","events":[{"t":"%s"}]}}}`+"\n",
			req.ID, v, v, v, v, alias, callID, v, v)
		return
	case "escaped_secret_bad_result": // a result that is not an AskResponse, holding env var <arg> \u-escaped; then a stray line with it
		v := uEscape(os.Getenv(arg))
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"submission":"%s","sub_events":"not a list"}}`+"\n", req.ID, v)
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"submission":"%s"}}`+"\n", req.ID, v)
		return
	case "escaped_secret_error": // a JSON-RPC error whose message and data hold env var <arg>, \u-escaped
		v := uEscape(os.Getenv(arg))
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"auth %s failed","data":{"%s":"%s"}}}`+"\n", req.ID, v, v, v)
		return
	case "transcript": // the answer with echo.TranscriptWire as written
		b, err := json.Marshal(echo.Answer(&ask, fault, alias, "subprocess", nil))
		if err != nil {
			fmt.Fprintf(os.Stderr, "echoagent: marshal: %v\n", err)
			os.Exit(1)
		}
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, echo.WithTranscript(b))
		return
	case "stdout_unsolicited":
		write(out, rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: echo.Answer(&ask, fault, alias, "subprocess", nil)})
		out.WriteString(`{"jsonrpc":"2.0","method":"unsolicited"}` + "\n")
		return
	}
	resp := echo.Answer(&ask, fault, alias, "subprocess", os.Environ())
	resp.Meta["pid"] = os.Getpid()
	addCost(resp.Meta)
	write(out, rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: resp})
}

// addCost reports ECHO_COST_USD, when set, as meta.cost_usd.
func addCost(meta map[string]any) {
	if c, err := strconv.ParseFloat(os.Getenv("ECHO_COST_USD"), 64); err == nil {
		meta["cost_usd"] = c
	}
}

// uEscape spells every byte of an ASCII s as a JSON \uXXXX escape: valid
// JSON for s, in none of the forms kitsoki's secret masker lists.
func uEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, `\u%04x`, s[i])
	}
	return b.String()
}
