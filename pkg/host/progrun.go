package host

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"kitsoki/internal/proc"
)

// progRun is one run of a program by a built-in other than host.run
// (host.local's go, host.git_worktree's git): stdout and stderr apart,
// each kept to maxRunOutput.
type progRun struct {
	stdout, stderr string
	exit           int
}

// runProgram runs name with args in dir (as the story gave it, resolved
// against the run's working directory when relative) under the inherited
// environment, in its own process group stopped with ctx. It words its
// failures as upstream's exec.Cmd does: a program not on PATH first
// (`exec: "go": executable file not found in $PATH`), then a directory it
// cannot enter (`chdir <dir as given>: <why>`). A non-zero exit is no
// error: progRun.exit holds it.
func runProgram(ctx context.Context, env *Env, dir, name string, args ...string) (progRun, error) {
	cmd := exec.Command(name, args...)
	if cmd.Err != nil {
		return progRun{}, cmd.Err
	}
	wd, err := env.workDir()
	if err != nil {
		return progRun{}, err
	}
	if cmd.Dir, err = commandDir(cmd, wd, dir); err != nil {
		return progRun{}, err
	}
	stdout, stderr := proc.NewHead(maxRunOutput), proc.NewHead(maxRunOutput)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	p, err := proc.Start(ctx, cmd, proc.Policy{Env: proc.Env{Policy: proc.EnvInherit}})
	if err != nil {
		return progRun{}, err
	}
	err = p.Wait()
	if ctx.Err() != nil {
		return progRun{}, fmt.Errorf("stopped: %v", ctx.Err())
	}
	r := progRun{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.exit = ee.ExitCode()
	case err != nil:
		return progRun{}, err
	}
	return r, nil
}

// commandDir is the directory cmd runs in: dir as the story gave it,
// resolved against the run's working directory wd when relative ("" =
// wd). One it cannot enter is worded as exec.Cmd words it: `chdir <dir
// as given>: <why>`, or `fork/exec <program>: not a directory` for a file.
func commandDir(cmd *exec.Cmd, wd, dir string) (string, error) {
	if dir == "" {
		return wd, nil
	}
	abs := dir
	if !filepath.IsAbs(dir) {
		abs = filepath.Join(wd, dir)
	}
	fi, err := os.Stat(abs)
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return "", fmt.Errorf("chdir %s: %v", dir, pe.Err)
	}
	if err != nil || !fi.IsDir() {
		return "", fmt.Errorf("fork/exec %s: %v", cmd.Path, syscall.ENOTDIR)
	}
	return abs, nil
}
