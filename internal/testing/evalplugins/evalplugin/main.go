package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
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
		// Past the eval fixture's p95 bar (max_p95_latency_ms 30000), which
		// is generous so that no loaded machine holds a fast call past it.
		if pr == "1" && req.Params.Turn == 0 {
			time.Sleep(31 * time.Second)
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

func result(req *request, sub, meta map[string]any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"submission": sub, "meta": meta}}
}
