package host

import (
	"context"
	"io"
	"os"
	"os/exec"
	"time"

	"kitsoki/internal/proc"
)

// outputGrace is how long host.run keeps reading the command's output
// after the command itself exited, for what a process it left behind
// still writes, before that process group is killed.
const outputGrace = 2 * time.Second

// runCollect runs cmd under pol with its stdout and stderr on one pipe
// copied into out, and returns what the command's Wait returned. A
// process left in the group still holding the pipe is killed after
// outputGrace; one that let go of it (`nohup srv >log 2>&1 &`) runs on.
// A write to out that fails (a printedBound passed) kills the command's
// group: it would print on for ever.
func runCollect(ctx context.Context, cmd *exec.Cmd, pol proc.Policy, out io.Writer) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	cmd.Stdout, cmd.Stderr = w, w
	pr, err := proc.Start(ctx, cmd, pol)
	w.Close() // the child holds its own copy
	if err != nil {
		return err
	}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		if _, err := io.Copy(out, r); err != nil {
			pr.Kill()
		}
	}()
	err = pr.Wait()
	grace := time.NewTimer(outputGrace)
	defer grace.Stop()
	select {
	case <-copied:
		return err
	case <-grace.C:
	}
	pr.Kill() // the leader is gone: this kills what it left in its group
	grace.Reset(outputGrace)
	select {
	case <-copied:
	case <-grace.C: // a process out of the group (setsid) still holds it
		r.Close()
		<-copied
	}
	return err
}
