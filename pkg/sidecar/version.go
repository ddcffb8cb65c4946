package sidecar

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"kitsoki/internal/proc"
)

// versionTimeout bounds llama-server --version: it prints and exits
// without loading a model.
const versionTimeout = 30 * time.Second

// Version runs bin --version the way a sidecar runs the server (libDir
// first on LD_LIBRARY_PATH on Linux) and returns the version it prints. A
// binary that cannot run on this host (a C library or libstdc++ too old,
// another architecture) fails here, quoting the loader's words, instead of
// at a story's first call.
func Version(ctx context.Context, bin, libDir string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	pol := serverPolicy(Config{Bin: bin, LibDir: libDir, StopGrace: time.Second})
	pr, err := proc.Start(ctx, exec.Command(bin, "--version"), pol)
	if err != nil {
		return "", fmt.Errorf("run %s --version: %w", bin, err)
	}
	werr := pr.Wait()
	out := strings.TrimSpace(pr.Tail().String())
	if ctx.Err() != nil {
		return "", fmt.Errorf("%s --version did not finish within %s: %w", bin, versionTimeout, ctx.Err())
	}
	if werr != nil {
		if ee, ok := errors.AsType[*exec.ExitError](werr); ok {
			werr = fmt.Errorf("%s", ee.ProcessState)
		}
		if out == "" {
			out = "(no output)"
		}
		return "", fmt.Errorf("%s --version failed (%v); its output:\n%s", bin, werr, out)
	}
	for line := range strings.Lines(out) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "version:"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	first, _, _ := strings.Cut(out, "\n")
	return strings.TrimSpace(first), nil
}
