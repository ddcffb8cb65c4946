package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// HandlerWorkspaceManager is upstream's workspace lookup through the
// workspace-manager program.
const HandlerWorkspaceManager = "host.workspace_manager.get"

// workspaceManagerHandler serves host.workspace_manager.get as upstream
// (conformance workspace-manager-get): it runs `workspace-manager get
// [--id <workspace_id>]` in the run's working directory (--id only for a
// non-empty string) and answers its stdout read as one JSON object (numbers
// float64; `null` is no data). A non-zero exit is the domain error of its
// stderr trimmed, and no error and no data when stderr is empty; the
// program missing from PATH, or stdout that is not one object, is an
// infrastructure error naming the handler.
type workspaceManagerHandler struct{}

func (workspaceManagerHandler) Call(ctx context.Context, c *Call) (Result, error) {
	const name = HandlerWorkspaceManager
	args := []string{"get"}
	if id := strArg(c.Args, "workspace_id"); id != "" {
		args = append(args, "--id", id)
	}
	r, err := runProgram(ctx, &c.Env, "", "workspace-manager", args...)
	if err != nil {
		return Result{}, fmt.Errorf("%s: exec: %v", name, err)
	}
	if r.exit != 0 {
		if msg := strings.TrimSpace(r.stderr); msg != "" {
			return Result{Error: msg}, nil
		}
		return Result{}, nil
	}
	var data map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &data); err != nil {
		return Result{}, fmt.Errorf("%s: parse JSON: %v", name, err)
	}
	if data == nil {
		return Result{}, nil
	}
	return Result{Data: data}, nil
}
