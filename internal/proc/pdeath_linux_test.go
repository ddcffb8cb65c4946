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

// Without sh there is no sentinel: the child leads its own group, and
// what it left there is killed as it exits, while its zombie still holds
// the group's id (waitid without reaping).
func TestWithoutShTheExitStillKillsWhatTheChildLeft(t *testing.T) {
	helper, pids := startHelper(t, "nosh")
	if len(pids) != 3 {
		t.Fatalf("helper said %v", pids)
	}
	child, pgid, gc := pids[0], pids[1], pids[2]
	if pgid != child {
		t.Fatalf("child %d is in group %d: want its own (no sentinel without sh)", child, pgid)
	}
	if err := helper.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	eventually(t, "the grandchild outlived its group's leader", func() bool { return !alive(gc) })
}
