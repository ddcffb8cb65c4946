//go:build linux

package proc

import "testing"

// A child started with Start dies when kitsoki does: a helper process
// starts one (in the child's own process group, so no group signal reaches
// it) and is then killed hard, with no chance to stop it.
func TestParentDeathKillsTheChild(t *testing.T) {
	helper, pids := startHelper(t, "pdeath")
	if len(pids) != 1 {
		t.Fatalf("helper said %v", pids)
	}
	pid := pids[0]
	if !alive(pid) {
		t.Fatal("the child is not running")
	}
	helper.Process.Kill()
	helper.Wait()
	eventually(t, "the child outlived its parent", func() bool { return !alive(pid) })
}
