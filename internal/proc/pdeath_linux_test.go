//go:build linux

package proc

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// A child started with Start dies when kitsoki does: a helper process
// starts one (in the child's own process group, so no group signal reaches
// it) and is then killed hard, with no chance to stop it.
func TestParentDeathKillsTheChild(t *testing.T) {
	helper := self(t)
	helper.Env = append(os.Environ(), childEnv+"=pdeath", "GORACE=atexit_sleep_ms=0")
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("helper said %q", line)
	}
	if !alive(pid) {
		t.Fatal("the child is not running")
	}
	helper.Process.Kill()
	helper.Wait()
	eventually(t, "the child outlived its parent", func() bool { return !alive(pid) })
}
