package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"
)

type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  struct {
		Turn int64          `json:"turn"`
		With map[string]any `json:"with"`
	} `json:"params"`
}

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			return
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			fmt.Fprintf(os.Stderr, "evalplugin: %v\n", err)
			os.Exit(1)
		}
		b, _ := json.Marshal(answer(&req))
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
}

func answer(req *request) map[string]any {
	w := req.Params.With
	model, _ := w["model"].(string)
	effort, _ := w["effort"].(string)
	args, _ := w["args"].(map[string]any)
	pr, _ := args["pr_id"].(string)
	sha, _ := args["merge_sha"].(string)
	intent := "refine"
	if sha != "" {
		intent = "accept"
	}
	meta := map[string]any{"model": model, "effort": effort}
	if _, judging := w["expect"]; judging {
		model = "judge"
	}
	switch model {
	case "good":
		meta["cost_usd"] = 0.001
	case "sloppy":
		intent = "accept"
		meta["cost_usd"] = 0.0005
		if pr == "1" {
			meta["fallback"] = true
		}
	case "broken":
		switch pr {
		case "2":
			intent = "maybe"
		case "4":
			return map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32000, "message": "broken on purpose"}}
		}
	case "leaky":
		return result(req, map[string]any{"intent": "refine", "confidence": 0.5, "reason": "token " + os.Getenv("EVAL_TOKEN")}, meta)
	case "hang":
		if p := os.Getenv("EVAL_HANGFILE"); p != "" {
			os.WriteFile(p, []byte(fmt.Sprintln(os.Getpid())), 0o644)
		}
		time.Sleep(time.Hour)
	case "slow":
		slowCalls++
		if e := holdSlowCall(slowCalls); e != "" {
			return map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32000, "message": e}}
		}
	case "judge":
		exp, _ := w["expect"].(map[string]any)
		act, _ := w["actual"].(map[string]any)
		verdict := "fail"
		if exp["intent"] == act["intent"] {
			verdict = "pass"
		}
		return result(req, map[string]any{"verdict": verdict, "reason": fmt.Sprintf("got %v want %v", act["intent"], exp["intent"])}, meta)
	}
	return result(req, map[string]any{"intent": intent, "confidence": 0.9}, meta)
}

// slowCalls counts the calls for model slow.
var slowCalls int

// holdSlowCall holds the EVAL_SLOWCALL-th call for model slow in the
// plugin, on the FIFO EVAL_SLOWFIFO: it writes the pid and a newline there
// (the call has arrived), then reads it to its end (the test moved the
// eval's clock forward and lets the call answer). The other calls answer
// at once. It returns what is wrong with the environment, if anything.
func holdSlowCall(n int) string {
	fifo, nth := os.Getenv("EVAL_SLOWFIFO"), os.Getenv("EVAL_SLOWCALL")
	if fifo == "" || nth == "" {
		return "model slow needs EVAL_SLOWFIFO and EVAL_SLOWCALL"
	}
	if nth != strconv.Itoa(n) {
		return ""
	}
	if err := os.WriteFile(fifo, []byte(fmt.Sprintln(os.Getpid())), 0o600); err != nil {
		return err.Error()
	}
	if _, err := os.ReadFile(fifo); err != nil {
		return err.Error()
	}
	return ""
}

func result(req *request, sub, meta map[string]any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"submission": sub, "meta": meta}}
}
