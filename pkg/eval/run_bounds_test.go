package eval

import (
	"runtime"
	"strings"
	"testing"
)

// TestPlanRefusesHugeMatrix: a dataset whose matrix makes more than
// maxJobs calls (matrix.repeat: 1000000000000 alone) is refused before a
// job is listed; each job was appended to a slice first, so the run ended
// in a fatal out-of-memory before its first call.
func TestPlanRefusesHugeMatrix(t *testing.T) {
	v, cas := cassetteFixture(t)
	v.Dataset.Matrix.Repeat = 500_000
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := planRun(v, RunOptions{Cassette: cas})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "over the limit of 1000000 calls") || !strings.Contains(err.Error(), "matrix.repeat") {
		t.Errorf("planRun: %v, want the matrix refused naming matrix.repeat", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
		t.Errorf("planRun allocated %d bytes", grew)
	}
}
