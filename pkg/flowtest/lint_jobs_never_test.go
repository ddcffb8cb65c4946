package flowtest

import (
	"fmt"
	"testing"
)

// TestLintExpectJobsNever: an expect_jobs entry with no namespace, a
// status that is not terminal, or a namespace no background call of the
// story invokes fails on both engines; jobs of the root, an imported
// child, an on_enter and a parallel region's arm are known (conformance
// lint-expect-jobs).
func TestLintExpectJobsNever(t *testing.T) {
	const never = `turns[0].expect_jobs[0]: namespace %q is no background call of the story (its jobs are host.chain, host.echo, host.kid, host.reg)`
	lintGolden(t, "../engine/testdata/conformance/lint-expect-jobs", map[string]string{
		"ok.yaml":         "",
		"chain.yaml":      "",
		"empty.yaml":      "",
		"kid.yaml":        "",
		"region.yaml":     "",
		"kidwrong.yaml":   unwarned, // host.echo is a job of the root: not certain here
		"wrongns.yaml":    fmt.Sprintf(never, "host.nope"),
		"nohandlers.yaml": fmt.Sprintf(never, "host.nope"),
		"syncns.yaml":     fmt.Sprintf(never, "host.other"),
		"nons.yaml":       "turns[0].expect_jobs[0] has no namespace",
		"nullentry.yaml":  "turns[0].expect_jobs[0] has no namespace",
		"nostatus.yaml":   `turns[0].expect_jobs[0]: status "" is not one of`,
		"badstatus.yaml":  `turns[0].expect_jobs[0]: status "running" is not one of`,
	}, ruleJobNever)
}
