package phases

import "testing"

// TestNextNamesExecuting: {{ phase.next.<arc> }} names <next>_executing,
// except the names that end a run, kept as written.
func TestNextNamesExecuting(t *testing.T) {
	for next, want := range map[string]string{
		"b": "b_executing", "": "", "terminated": "terminated", "ended": "ended", "completed": "completed",
		"abandoned": "abandoned", "failed": "failed", "ended_ok": "ended_ok", "endedx": "endedx_executing",
		"@exit:done": "@exit:done_executing", "b_executing": "b_executing_executing",
	} {
		if got := executing(next); got != want {
			t.Errorf("executing(%q) = %q, want %q", next, got, want)
		}
	}
}
