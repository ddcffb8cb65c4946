package flowtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	storylint "kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// bindGolden is the probe story of the known world's binds, with what
// the existing engine printed for each fixture (upstream.json).
const bindGolden = "../engine/testdata/conformance/lint-bind-answer"

// TestLintFollowsBinds: a guard reading a key a call bound is judged on
// the answer the fixture's stub certainly gives (conformance
// lint-bind-answer): each fixture upstream fails is warned as it fails
// there, the one it passes is not.
func TestLintFollowsBinds(t *testing.T) {
	want := map[string]string{
		"a_missing_path.yaml": `takes the arm whose when: world.verdict == 'none' is true`, // a path the answer lacks binds nothing
		"b_unstubbed.yaml":    `takes the arm whose when: world.verdict == 'none' is true`, // no stub serves it: an infra error
		"c_legacy.yaml":       `takes the arm whose when: world.verdict == 'none' is true`, // the legacy path runs no call
		"d_error_data.yaml":   `every one's when: is false`,                                // a domain error's data still binds
		"e_by_call.yaml":      `every one's when: is false`,                                // by_call on the effect's id
		"f_iface_prefix.yaml": `takes the arm whose when: world.verdict == 'ok' is true`,   // iface default, prefix stub, by_op
		"g_infra.yaml":        `takes the arm whose when: world.verdict == 'none' is true`, // infra_error binds nothing
		"h_bound.yaml":        "",
	}
	lintGolden(t, bindGolden, want, ruleRejected, ruleWrongState)
}

// TestLintWorldKnown: an expect_world value the world the fixture
// certainly has after the turn differs from is flow-world-known
// (conformance lint-world-known): a literal set:, a once: call that
// runs (its bind key empty) and binds nothing, one skipped (every bind
// key set).
func TestLintWorldKnown(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-world-known", map[string]string{
		"a_set_literal.yaml":            `expect_world["lamp"]: false, but after the turns before it and this one the fixture certainly holds true there`,
		"b_once_runs_missing_path.yaml": `expect_world["pr"]: "7", but after the turns before it and this one the fixture certainly holds "" there`,
		"c_once_skipped.yaml":           `expect_world["pr"]: "7", but after the turns before it and this one the fixture certainly holds "1" there`,
		"d_once_runs_bound.yaml":        "",
		"e_set_holds.yaml":              "",
	}, ruleWorldKnown)
}

// unwarned, as a lintGolden want, is a fixture the existing engine fails
// where the lint, by design, does not follow it: no finding.
const unwarned = "(fails upstream; not followed)"

// lintGolden lints each fixture of the conformance probe dir against its
// story: one finding of rules holding want[fixture] where the existing
// engine failed it (upstream.json), none where it passed (or where want
// is unwarned).
func lintGolden(t *testing.T, dir string, want map[string]string, rules ...*diag.Rule) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "upstream.json"))
	if err != nil {
		t.Fatal(err)
	}
	var up Report
	if err := json.Unmarshal(b, &up); err != nil {
		t.Fatal(err)
	}
	st := loadGoldenStory(t, dir)
	if len(up.Results) != len(want) {
		t.Fatalf("upstream ran %d fixtures, the table has %d", len(up.Results), len(want))
	}
	for _, r := range up.Results {
		name := filepath.Base(r.File)
		t.Run(name, func(t *testing.T) {
			w, ok := want[name]
			if !ok || (w == "") != r.Passed {
				t.Fatalf("%s: upstream passed=%v, the table wants %q", name, r.Passed, w)
			}
			var got []diag.Diagnostic
			for _, d := range lintFixtureFile(t, st, filepath.Join(dir, r.File)) {
				if slices.ContainsFunc(rules, func(r *diag.Rule) bool { return r.ID == d.Rule }) {
					got = append(got, d)
				}
			}
			if w == unwarned {
				w = ""
			}
			wantFinding(t, got, w)
		})
	}
}

// lintFixtureFile is the lint's findings on the fixtures of the file at
// path, against st.
// loadGoldenStory loads the golden dir's app.yaml where it lies, so the
// files a fixture names (its cassette) are there.
func loadGoldenStory(t *testing.T, dir string) *story.Story {
	t.Helper()
	st, ds := storylint.Load(filepath.Join(dir, "app.yaml"), story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	return st
}

func lintFixtureFile(t *testing.T, st *story.Story, path string) []diag.Diagnostic {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fxs, pds := parse(path, src)
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	return lint(st, fxs)
}

// TestLintBindsLeftUncertain: an answer the lint cannot be sure of
// leaves the bound key uncertain, and no guard reading it is judged.
func TestLintBindsLeftUncertain(t *testing.T) {
	app, err := os.ReadFile(filepath.Join(bindGolden, "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, stub := range map[string]string{
		"a delay":         "host.run: {delay: 1s, data: {stdout_json: {verdict: bad}}}",
		"a clarification": "host.run: {request_clarification: why, data: {stdout_json: {verdict: bad}}}",
		"a cassette":      "",
		"a templated id":  "host.run: {data: {stdout_json: {verdict: bad}}, by_call: {x: {data: {}}}}",
		"a template bind": "host.run: {data: {stdout_json: {verdict: bad}}}",
	} {
		t.Run(name, func(t *testing.T) {
			story := string(app)
			fx := "test_kind: flow\ninitial_state: hall\n"
			switch name {
			case "a cassette":
				fx += "host_cassette: c.yaml\n"
			case "a templated id":
				story = strings.Replace(story, "id: first", "id: \"{{ world.verdict }}\"", 1)
			case "a template bind":
				story = strings.Replace(story, `"stdout_json.verdict"`, `"{{ result.stdout_json.verdict }}"`, 1)
			}
			if stub != "" {
				fx += "host_handlers:\n  " + stub + "\n"
			}
			fx += "turns:\n  - intent: {name: check}\n  - intent: {name: ship}\n    expect_state: shipped\n"
			files := map[string]string{"app.yaml": story, "flows/c.yaml": "episodes: []\n"}
			got := append(ruleFindings(t, ruleRejected, files, fx), ruleFindings(t, ruleWrongState, files, fx)...)
			if len(got) != 0 {
				t.Fatalf("want no finding, got %v", got)
			}
		})
	}
}

// TestLintFollowsCassette: a call the fixture's host_cassette certainly
// answers binds as the replay does (conformance lint-cassette-answer):
// each fixture upstream fails is warned as it fails there, but for the
// answers that depend on a rendered template or on what was played.
func TestLintFollowsCassette(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-cassette-answer", map[string]string{
		"a_handler_only.yaml":  `every one's when: is false`,                                // handler alone
		"b_by_call.yaml":       `every one's when: is false`,                                // call: the effect's id
		"c_with_key.yaml":      `takes the arm whose when: world.verdict == 'none' is true`, // a literal with: key
		"d_miss.yaml":          `takes the arm whose when: world.verdict == 'none' is true`, // a cassette miss: infra
		"e_error_data.yaml":    `every one's when: is false`,                                // a domain error's data binds
		"f_infra.yaml":         `takes the arm whose when: world.verdict == 'none' is true`, // infra_error binds nothing
		"g_unserved.yaml":      `takes the arm whose when: world.verdict == 'none' is true`, // no episode names it
		"h_agent_key.yaml":     `every one's when: is false`,                                // an agent call's with: key
		"i_templated_key.yaml": unwarned,                                                    // matched as rendered
		"j_played_once.yaml":   unwarned,                                                    // plays once
		"k_ok.yaml":            "",
		"l_settle.yaml":        `ends at "shipped"`, // on_enter call, then the post-bind emit
	}, ruleRejected, ruleWrongState)
}

// A cassette agent answer holding submission and no submitted binds
// nothing from submitted.*, in both engines, so the lint follows it.
func TestLintFollowsSubmissionOnly(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/cassette-submission-only", map[string]string{
		"a_submission.yaml":    "", // no submitted: nothing bound
		"b_submitted.yaml":     `when: world.verdict == 'ok' is true`,
		"c_both.yaml":          `when: world.verdict == 'ok' is true`, // submitted is read
		"d_neither.yaml":       "",
		"e_plain.yaml":         "",
		"f_prefix.yaml":        "",
		"g_errsub.yaml":        "",
		"h_agentjson.yaml":     "",
		"i_agentonly.yaml":     "",
		"j_asksub.yaml":        "",
		"k_nullsubmitted.yaml": "",
		"l_raw.yaml":           "",
		"m_legacy.yaml":        "",
		"n_wrong.yaml":         `when: world.verdict == 'none' is true`, // followed: nothing bound
	}, ruleRejected, ruleWrongState)
}

// TestLintUnusedStubLifted: a fixture's host_bindings, a lifted name
// (kid__ticket) included, decide which handlers the story calls for the
// unused-stub check: upstream calls the fixture's binding, not the
// import's (conformance fixture-bindings-lifted, whose upstream.json
// shows child.yaml calling host.tk2.search and never host.tk3).
func TestLintUnusedStubLifted(t *testing.T) {
	dir := "../host/testdata/conformance/fixture-bindings-lifted"
	st := loadGoldenStory(t, dir)
	for file, want := range map[string][]string{
		"child.yaml":       {"host.tk3", "host.tk4", "host.tk5"},
		"grandchild.yaml":  {"host.tk2"},
		"ignored.yaml":     nil, // host.tk2 and host.tk5 are bound to, so kept
		"import-only.yaml": {"host.tk2", "host.tk4", "host.tk5"},
	} {
		var got []string
		for _, d := range lintFixtureFile(t, st, filepath.Join(dir, "flows", file)) {
			if d.Rule == ruleUnusedStub.ID {
				name, _, _ := strings.Cut(strings.TrimPrefix(d.Message, "host_handlers."), ":")
				got = append(got, name)
				if file == "child.yaml" && !strings.Contains(d.Message, "host.tk2.search") {
					t.Errorf("%s: the calls listed should name the fixture's binding: %s", file, d.Message)
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: unused stubs warned %v, want %v", file, got, want)
		}
	}
}
