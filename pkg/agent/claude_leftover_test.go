package agent

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kitsoki/internal/testing/proctest"
)

// A claude CLI that answers and exits leaving a process in its group (one
// that let go of the output, so nothing waits for it) leaves nothing
// behind: the group goes with the call (before the fix the process
// outlived the call and kitsoki itself). STAND-IN: fakeclaude.
func TestClaudeCLILeavesNoProcessBehind(t *testing.T) {
	bin := BuildTestPlugin(t, "fakeclaude")
	CheckNoChildren(t)
	pidfile := filepath.Join(t.TempDir(), "left.pid")
	answer := `{"ok":true}`
	tr := newClaudeTransport(t, bin, "", map[string]string{"FAKE_CLAUDE_MODE": "leave_child", "FAKE_CLAUDE_PIDFILE": pidfile, "FAKE_CLAUDE_ANSWER": answer})
	if resp := askOK(t, tr, referenceRequest()); string(resp.Submission) != answer {
		t.Fatalf("submission %s", resp.Submission)
	}
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p, err := os.FindProcess(pid); err == nil && !proctest.Gone(pid) {
			_ = p.Kill()
		}
	})
	proctest.WaitGone(t, pid)
}
