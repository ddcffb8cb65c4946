package flowtest

import (
	"cmp"
	"slices"

	"kitsoki/pkg/engine"
)

// listedJobs orders jobs as upstream's flow rig lists them for
// expect_jobs: by submission time on the virtual clock, earliest first,
// and jobs submitted at one clock time newest first (the reverse of
// their submission). A job left awaiting a clarification answer across
// an advance therefore comes before one a later turn submits
// (conformance expect-jobs-submitted-time), while the jobs of one turn
// or one advance keep newest first (conformance
// expect-jobs-newest-first).
func listedJobs(jobs []engine.JobInfo) []engine.JobInfo {
	out := slices.Clone(jobs)
	slices.SortStableFunc(out, func(a, b engine.JobInfo) int {
		if c := a.Submitted.Compare(b.Submitted); c != 0 {
			return c
		}
		return cmp.Compare(b.Seq, a.Seq)
	})
	return out
}
