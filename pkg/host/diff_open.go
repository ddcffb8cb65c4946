package host

import "context"

// HandlerDiffOpen is upstream's "show the operator a diff" handler.
const HandlerDiffOpen = "host.diff.open"

// diffOpenHandler serves host.diff.open with upstream's answer,
// {reviewed: true, surface: "difftool:git", verdict: null}, whatever its
// arguments. Upstream also opens git's difftool, a GUI program waiting on
// a person; kitsoki starts nothing (docs/compat/hosts.md).
type diffOpenHandler struct{}

func (diffOpenHandler) Call(ctx context.Context, c *Call) (Result, error) {
	return Result{Data: map[string]any{"reviewed": true, "surface": "difftool:git", "verdict": nil}}, nil
}
