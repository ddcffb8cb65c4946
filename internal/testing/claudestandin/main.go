package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kitsoki/internal/testing/claudeargs"
)

func main() {
	opts, err := claudeargs.Parse(os.Args[1:])
	if err != nil {
		fail(err)
	}
	cfgPath := opts["--mcp-config"]
	_, _ = io.ReadAll(os.Stdin) // the prompt
	if cfgPath == "" {
		fmt.Println(`{"type":"result","subtype":"success","is_error":false,"result":"{\"decision\":\"approve\"}"}`)
		return
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	b, err := os.ReadFile(cfgPath)
	if err == nil {
		err = json.Unmarshal(b, &cfg)
	}
	if err != nil {
		fail(err)
	}
	srv, ok := cfg.MCPServers["kitsoki"]
	if !ok {
		fail(fmt.Errorf("no kitsoki server in %s", cfgPath))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "claude-standin", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(srv.Command, srv.Args...)}, nil)
	if err != nil {
		fail(err)
	}
	defer cs.Close()
	bad, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "submit", Arguments: map[string]any{"decision": "maybe"}})
	if err != nil || !bad.IsError {
		fail(fmt.Errorf("an invalid submission was accepted: %v %+v", err, bad))
	}
	var answer map[string]any
	if err := json.Unmarshal([]byte(os.Getenv("STANDIN_ANSWER")), &answer); err != nil {
		fail(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "submit", Arguments: answer})
	if err != nil || res.IsError {
		fail(fmt.Errorf("submit failed: %v %+v", err, res))
	}
	fmt.Println(`{"type":"result","subtype":"success","is_error":false,"result":"I submitted my answer through the submit tool.","total_cost_usd":0.01}`)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "claude stand-in:", err)
	os.Exit(1)
}
