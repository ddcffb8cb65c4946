package flowtest

import "testing"

// TestLintCallsNever: expect_host_calls and expect_events entries no call
// or write of the story can match (conformance calls-never) are flagged;
// their neighbours that pass upstream are not, nor a templated with:.
func TestLintCallsNever(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/calls-never", map[string]string{
		"a_legacy.yaml":          `runs on the legacy path`,
		"b_legacy_times0.yaml":   "",
		"c_unknown_handler.yaml": `"host.nope", but no invoke of the story names that handler`,
		"d_key_never.yaml":       `never sends z`,
		"e_key_null.yaml":        "",
		"f_int_as_float.yaml":    "",
		"g_float_other.yaml":     `sends f: 1.5`,
		"h_text_number.yaml":     `sends s: "1"`,
		"i_template.yaml":        unwarned,
		"j_id_ok.yaml":           "",
		"k_id_other.yaml":        `never sends call`,
		"l_times2.yaml":          `"host.nope", but no invoke`,
		"m_background.yaml":      `is a background call, which the runner never counts`,
		"n_oncomplete.yaml":      `runs in a job's completion turn`,
		"o_kid.yaml":             `"host.ok" with args {"who":"parent"}, but no call of it the story makes can send them`,
		"p_kid_ok.yaml":          "",
		"q_event_never.yaml":     `a world.update setting w to 0, but`,
		"r_event_ok.yaml":        "",
		"s_event_kid.yaml":       `setting kid__y to 4`,
		"t_event_legacy.yaml":    `setting w to 1`,
	}, ruleCallNever)
}

// TestLintCallsNeverBound: an interface call is judged by the name the
// fixture's host_bindings send it under (conformance calls-never-bound).
func TestLintCallsNeverBound(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/calls-never-bound", map[string]string{
		"a_rebound.yaml":         "",
		"b_default_rebound.yaml": `"host.local_files.ticket.search", but no invoke of the story names that handler (it calls: host.tk2.search)`,
		"c_rebound_args.yaml":    `sends query: "kq"`,
		"d_ignored_default.yaml": "",
		"e_ignored_bound.yaml":   `"host.tk2.search", but no invoke of the story names that handler (it calls: host.local_files.ticket.search)`,
		"f_kid_rebound.yaml":     "",
		"g_kid_parent.yaml":      `intent "kid__ks" effects[0] sends query: "cq"`,
		"h_plain.yaml":           "",
	}, ruleCallNever)
}
