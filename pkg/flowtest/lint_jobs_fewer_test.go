package flowtest

import "testing"

const (
	fewerEnded    = "turns[1].expect_jobs lists 1 entry, but at most 0 can become terminal in this turn (0 the turn submits, every step of it certain; 1 job an earlier turn submitted that ended before this turn"
	fewerUnstored = "a NaN or an infinity: upstream's job store holds no row for such a job"
)

// TestLintJobsEndAtOnce: a job whose stub has no delay: ends in the turn
// that submits it, so the next turn's expect_jobs, landing it or not,
// counts no job (conformance job-ends-at-once; job-ended-before-landing
// after a move, a failing stub and a terminal state).
func TestLintJobsEndAtOnce(t *testing.T) {
	for golden, want := range map[string]map[string]string{
		"job-ends-at-once": {
			"delayed.yaml": "", "enter.yaml": "", "lands_later.yaml": "", "now_done.yaml": "", "now_failed.yaml": "",
			"next_advance.yaml": fewerEnded, "next_advance_failed.yaml": fewerEnded, "next_turn.yaml": fewerEnded,
		},
		"job-ended-before-landing": {
			"answer_done.yaml": "", "answer_terminal.yaml": "", "arm_same.yaml": "", "ask_same.yaml": "", "err_same.yaml": "",
			"kid_same.yaml": "", "par_same.yaml": "", "same.yaml": "", "term_same.yaml": "", "two_same.yaml": "",
			"err_next.yaml": fewerEnded, "next_look.yaml": fewerEnded, "term_next.yaml": fewerEnded,
			"next_adv.yaml": "turns[1].expect_jobs lists 1 entry, but at most 0 can become terminal",
		},
	} {
		lintGolden(t, "../engine/testdata/conformance/"+golden, want, ruleJobNever)
	}
}

// TestLintJobsUnstored: a job whose with: renders a NaN or an infinity
// is never seen by expect_jobs, at the root, in an on_enter, beside a
// finite job, in an imported child and as an agent verb's job
// (conformance job-args-non-finite); a region's arm and a job after a
// bind are not followed.
func TestLintJobsUnstored(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/job-args-non-finite", map[string]string{
		"clarify-finite.yaml": "", "clarify.yaml": "", "finite.yaml": "", "lands.yaml": "", "two-one.yaml": "",
		"agent.yaml":     fewerUnstored,
		"child.yaml":     fewerUnstored,
		"enter.yaml":     fewerUnstored,
		"unseen.yaml":    fewerUnstored,
		"two-two.yaml":   "turns[1].expect_jobs lists 2 entries, but at most 1 can become terminal in this turn (0 the turn submits, every step of it certain; 1 job an earlier turn submitted with a stub delay: still out; 1 job whose with: renders " + fewerUnstored,
		"afterbind.yaml": unwarned,
		"region.yaml":    unwarned,
	}, ruleJobNever)
}
