package validate

import (
	"testing"

	"kitsoki/pkg/story"
)

// TestRunSameResultWhateverJobs: the findings, their order and the
// verdicts do not depend on how many workers check the stories nor on
// which worker checks which (two copies of every story, so workers share
// parse-cache entries).
func TestRunSameResultWhateverJobs(t *testing.T) {
	_, files := leakCorpus(t)
	var want string
	for _, jobs := range []int{1, 2, 3, 8} {
		got := renderResult(Run(files, Options{Story: story.Options{AllowUnsetEnv: true}, Flows: true, Jobs: jobs}))
		if jobs == 1 {
			want = got
			continue
		}
		if got != want {
			t.Errorf("--jobs %d differs from --jobs 1:\n%s", jobs, lineDiff(want, got))
		}
	}
}
