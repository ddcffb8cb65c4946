package flowtest

import "testing"

// TestLintInboxKnown: the settle walk counts the inbox's notices as it
// submits and lands the fixture's jobs (conformance lint-inbox-known):
// none without a job (a, k), the submission's (b), the landing's success
// (c, d, h, i) or error (e, f), posted off the origin too (g); given up
// where the session rests terminal (j) and where the completion turn may
// fail (l).
func TestLintInboxKnown(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-inbox-known", map[string]string{
		"a_no_job.yaml":       "turns[0].expect_inbox.unread: 2, but after the turns before it and this one the inbox certainly holds 0 unread notification(s), severities [], needs_attention 0",
		"b_submitted.yaml":    "",
		"c_landed.yaml":       "",
		"d_landed_wrong.yaml": "turns[0].expect_inbox.unread: 1, but after the turns before it and this one the inbox certainly holds 2 unread notification(s), severities [info success], needs_attention 0",
		"e_failed.yaml":       "",
		"f_failed_wrong.yaml": "turns[0].expect_inbox.severities: [info success], but after the turns before it and this one the inbox certainly holds 2 unread notification(s), severities [error info], needs_attention 0",
		"g_left_origin.yaml":  "",
		"h_two_jobs.yaml":     "turns[2].expect_inbox.unread: 3, but after the turns before it and this one the inbox certainly holds 4 unread notification(s), severities [info info success success], needs_attention 0",
		"i_attention.yaml":    "turns[0].expect_inbox.needs_attention: 1, but after the turns before it and this one the inbox certainly holds 2 unread notification(s), severities [info success], needs_attention 0",
		"j_terminal.yaml":     "",
		"k_no_clock.yaml":     "",
		"l_chain_fails.yaml":  "",
	}, ruleInboxKnown, ruleWorldKnown, ruleRejected, ruleWrongState)
}

// TestLintInboxSeverityNever: an expect_inbox.severities entry no
// notification has ("x") fails on both engines whatever the story posts
// (conformance inbox-kind-severity g, h); the fixture listing real
// severities is not judged by it.
func TestLintInboxSeverityNever(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/inbox-kind-severity", map[string]string{
		"pass.yaml": "",
		"g.yaml":    `turns[0].expect_inbox.severities[0]: "x" is no notification's severity`,
		"h.yaml":    `turns[0].expect_inbox.severities[0]: "x" is no notification's severity`,
	}, ruleInboxKnown)
}
