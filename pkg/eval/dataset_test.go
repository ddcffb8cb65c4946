package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"kitsoki/internal/testing/aliasmb"
	"kitsoki/internal/testing/refusal"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// Golden: the corpus dataset parses to exactly this model.
func TestParseDatasetGolden(t *testing.T) {
	d, err := LoadDataset("testdata/pr-refinement/evals/merge_judge.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Findings) != 0 {
		t.Errorf("findings %v", d.Findings)
	}
	mt, lat, cost := 1, int64(8000), 0.002
	pc := true
	want := &Dataset{
		Kind: "agent_eval", App: "../app.yaml", Call: "merge_judge", Agent: "judge",
		Task: Task{
			Goal:         "Classify whether a landed PR can be closed out or needs another pass.",
			Boundedness:  &Boundedness{MaxTurns: &mt, ToolPolicy: "none", PreparedContext: &pc},
			AdherenceBar: &AdherenceBar{MinPassRate: 0.95, MaxP95LatencyMS: &lat, MaxAvgCostUSD: &cost},
		},
		Matrix: Matrix{
			Profiles: []string{"claude", "codex-native", "synthetic-claude", "synthetic-codex"},
			Models:   map[string][]string{"synthetic-codex": {"syn:large:text", "syn:small:text"}, "synthetic-claude": {"syn:large:text", "syn:small:text"}},
			Effort:   []string{"low", "medium"},
			Repeat:   5,
		},
		Comparator: Comparator{Kind: "enum", Field: "intent"},
		Selection: &DatasetSelection{Strategy: "cheapest_passing", Pinned: &Pin{
			Profile: "synthetic-codex", Model: "syn:small:text", Effort: "low",
			Evidence: "evals/reports/merge_judge/latest.json", FallbackProfile: "claude"}},
	}
	got := *d
	got.Path, got.shown, got.Raw, got.Examples, got.pos, got.Findings = "", "", nil, nil, nil, nil
	if !reflect.DeepEqual(&got, want) {
		t.Errorf("dataset\n got %+v\nwant %+v", got, *want)
	}
	if len(d.Examples) != 2 {
		t.Fatalf("examples %d", len(d.Examples))
	}
	e := d.Examples[1]
	if e.Name != "missing-merge-sha-blocks-closeout" || e.Args["merge_sha"] != "" || e.Args["pr_id"] != "146" ||
		e.Expect["intent"] != "refine" || e.Expect["confidence"] != 0.91 || e.Pos.Line != 40 || e.Pos.Col != 5 {
		t.Errorf("example %+v", e)
	}
	if p := d.PosOf("selection.pinned.profile"); p.Line != 54 || p.Col != 14 {
		t.Errorf("pinned.profile at %+v", p)
	}
	if d.ComparatorLabel() != "enum" || d.PinLabel() != "synthetic-codex/syn:small:text" {
		t.Errorf("labels %q %q", d.ComparatorLabel(), d.PinLabel())
	}
}

func TestParseDatasetHardErrors(t *testing.T) {
	for name, src := range map[string]string{
		"syntax":     "kind: [agent_eval\n",
		"empty":      "",
		"not a map":  "- a\n- b\n",
		"scalar doc": "hello\n",
	} {
		if _, err := parseDataset("x.yaml", "x.yaml", []byte(src)); err == nil {
			t.Errorf("%s: parsed", name)
		} else if !strings.Contains(err.Error(), "x.yaml") {
			t.Errorf("%s: error does not name the file: %v", name, err)
		}
	}
}

func TestParseComparatorScalar(t *testing.T) {
	d, err := parseDataset("x.yaml", "x.yaml", []byte("comparator: exact\n"))
	if err != nil || d.Comparator.Kind != "exact" || d.ComparatorLabel() != "exact" {
		t.Fatalf("%+v %v", d, err)
	}
}

const baseDataset = `kind: agent_eval
app: ../app.yaml
call: merge_judge
agent: judge
task:
  adherence_bar: {min_pass_rate: 0.9}
matrix:
  profiles: [plug]
  models:
    plug: [good]
  effort: [low]
  repeat: 2
comparator: {kind: enum, field: intent}
examples:
  - name: e1
    args: {pr_id: "1", merge_sha: abc}
    expect: {intent: accept, confidence: 0.9}
selection:
  strategy: cheapest_passing
  pinned: {profile: plug, model: good, effort: low}
`

// TestRules: every validation rule, its message and where it points.
func TestRules(t *testing.T) {
	dir := filepath.Dir(filepath.Dir(writeFixture(t, fixture{Profiles: "plug", Models: "    plug: [good]"})))
	cases := []struct {
		name     string
		from, to string // replace in baseDataset
		sev      diag.Severity
		msg      string
		line     int // 0 = do not check
	}{
		{"kind", "kind: agent_eval", "kind: eval", diag.Error, "kind must be agent_eval", 1},
		{"app required", "app: ../app.yaml", "app: ''", diag.Error, "app is required", 2},
		{"call required", "call: merge_judge", "call: ''", diag.Error, "call is required", 3},
		{"call is a path", "call: merge_judge", "call: ../../../../tmp/pwn", diag.Error, `call "../../../../tmp/pwn" names its reports folder (reports/<call>/) and must be one path segment: no /, \ or ..; use the invoke's plain id`, 3},
		{"comparator required", "comparator: {kind: enum, field: intent}", "", diag.Error, "comparator is required", 0},
		{"comparator unsupported", "comparator: {kind: enum, field: intent}", "comparator: fuzzy", diag.Error, `unsupported comparator "fuzzy"`, 13},
		{"examples required", "examples:\n  - name: e1\n    args: {pr_id: \"1\", merge_sha: abc}\n    expect: {intent: accept, confidence: 0.9}\n", "", diag.Error, "at least one example is required", 0},
		{"name required", "  - name: e1\n", "  - name: ''\n", diag.Error, "examples[0].name is required", 15},
		{"duplicate name", "    expect: {intent: accept, confidence: 0.9}\n", "    expect: {intent: accept, confidence: 0.9}\n  - name: e1\n    expect: {intent: accept, confidence: 0.9}\n", diag.Error, `duplicate example name "e1"`, 18},
		{"expect required", "    expect: {intent: accept, confidence: 0.9}\n", "", diag.Error, `example "e1" expect is required`, 15},
		{"load app", "app: ../app.yaml", "app: ../nope.yaml", diag.Error, "load app: ", 2},
		{"call site", "call: merge_judge", "call: other", diag.Error, `call site "other" not found; add id: other to the target host.agent.* invoke`, 3},
		{"agent mismatch", "agent: judge", "agent: critic", diag.Error, `dataset agent "critic" does not match call-site agent "judge"`, 4},
		{"expect schema", "expect: {intent: accept, confidence: 0.9}", "expect: {intent: maybe, confidence: 2}", diag.Error, `example "e1" expect schema invalid: agent: schema_invalid: /confidence: maximum: got 2, want 1; /intent: value must be one of 'accept', 'refine'`, 17},
		// upstream's words: no keyword before a library message that has none
		{"expect schema type", "expect: {intent: accept, confidence: 0.9}", "expect: {intent: accept, confidence: high}", diag.Error, `example "e1" expect schema invalid: agent: schema_invalid: /confidence: got string, want number`, 17},
		{"expect schema required", "expect: {intent: accept, confidence: 0.9}", "expect: {intent: accept}", diag.Error, `example "e1" expect schema invalid: agent: schema_invalid: missing property 'confidence'`, 17},
		// a missing, null or empty expect is checked too, as upstream does
		{"expect missing schema", "    expect: {intent: accept, confidence: 0.9}\n", "", diag.Error, `example "e1" expect schema invalid: agent: schema_invalid: got null, want object`, 15},
		{"expect null schema", "expect: {intent: accept, confidence: 0.9}", "expect: null", diag.Error, `example "e1" expect schema invalid: agent: schema_invalid: got null, want object`, 17},
		{"expect empty schema", "expect: {intent: accept, confidence: 0.9}", "expect: {}", diag.Error, `example "e1" expect schema invalid: agent: schema_invalid: missing properties 'intent', 'confidence'`, 17},
		{"judge warning", "comparator: {kind: enum, field: intent}", "comparator: {kind: judge, agent: agent.judge}", diag.Warning, "judge comparator requires passing evidence for the judge call site before promotion", 13},
		{"judge agent", "comparator: {kind: enum, field: intent}", "comparator: {kind: judge, agent: agent.nobody}", diag.Error, `comparator.agent "agent.nobody" is not an agent_plugins alias`, 13},
		{"min pass rate", "min_pass_rate: 0.9", "min_pass_rate: 1.5", diag.Error, "task.adherence_bar.min_pass_rate must be between 0 and 1, got 1.5", 6},
		{"min pass rate type", "min_pass_rate: 0.9", "min_pass_rate: high", diag.Error, `task.adherence_bar.min_pass_rate must be a number, got "high"`, 6},
		{"latency negative", "{min_pass_rate: 0.9}", "{min_pass_rate: 0.9, max_p95_latency_ms: -1}", diag.Error, "task.adherence_bar.max_p95_latency_ms must not be negative", 6},
		{"min pass rate NaN", "min_pass_rate: 0.9", "min_pass_rate: .nan", diag.Error, "task.adherence_bar.min_pass_rate must be between 0 and 1, got NaN", 6},
		{"pass k rate", "{min_pass_rate: 0.9}", "{min_pass_rate: 0.9, min_pass_k_rate: 2}", diag.Error, "task.adherence_bar.min_pass_k_rate must be between 0 and 1, got 2", 6},
		{"cost NaN", "{min_pass_rate: 0.9}", "{min_pass_rate: 0.9, max_avg_cost_usd: .nan}", diag.Error, "task.adherence_bar.max_avg_cost_usd must not be negative, got NaN", 6},
		{"cost negative", "{min_pass_rate: 0.9}", "{min_pass_rate: 0.9, max_avg_cost_usd: -0.1}", diag.Error, "task.adherence_bar.max_avg_cost_usd must not be negative", 6},
		{"max turns", "task:\n", "task:\n  boundedness: {max_turns: 0}\n", diag.Error, "task.boundedness.max_turns must be at least 1, got 0", 6},
		{"prepared context type", "task:\n", "task:\n  boundedness: {prepared_context: sure}\n", diag.Error, `task.boundedness.prepared_context must be true or false, got "sure"`, 6},
		{"repeat", "repeat: 2", "repeat: 0", diag.Error, "matrix.repeat must be at least 1, got 0", 12},
		{"repeat type", "repeat: 2", "repeat: many", diag.Error, `matrix.repeat must be an integer, got "many"`, 12},
		{"profiles empty", "profiles: [plug]", "profiles: []", diag.Warning, "matrix.profiles is empty", 0},
		{"profile duplicate", "profiles: [plug]", "profiles: [plug, plug]", diag.Error, `duplicate profile "plug" in matrix.profiles`, 8},
		{"profile undeclared", "profiles: [plug]", "profiles: [plug, ghost]", diag.Warning, `matrix.profiles[1] "ghost" is not an agent_plugins alias of the app`, 8},
		{"profile misspelt", "profiles: [plug]", "profiles: [plug, plgu]", diag.Warning, `matrix.profiles[1] "plgu" is not an agent_plugins alias of the app; eval run cannot reach it without --cassette (declare agent_plugins: agent.plgu); did you mean ` + "`plug`?", 8},
		{"models unknown profile", "    plug: [good]", "    plug: [good]\n    other: [x]", diag.Error, "matrix.models.other names a profile that is not in matrix.profiles", 11},
		{"models duplicate", "plug: [good]", "plug: [good, good]", diag.Error, `duplicate model "good" in matrix.models.plug`, 10},
		{"rate unknown profile", "repeat: 2", "repeat: 2\n  cost_per_hour_usd: {other: 1}", diag.Error, "matrix.cost_per_hour_usd.other names a profile that is not in matrix.profiles", 13},
		{"rate negative", "repeat: 2", "repeat: 2\n  cost_per_hour_usd: {plug: -0.5}", diag.Error, "matrix.cost_per_hour_usd.plug must be a price in USD per hour from 0 to 1e+06, got -0.5", 13},
		{"rate not a number", "repeat: 2", "repeat: 2\n  cost_per_hour_usd: {plug: .nan}", diag.Error, "matrix.cost_per_hour_usd.plug must be a price in USD per hour from 0 to 1e+06, got NaN", 13},
		{"rate too large", "repeat: 2", "repeat: 2\n  cost_per_hour_usd: {plug: .inf}", diag.Error, "matrix.cost_per_hour_usd.plug must be a price in USD per hour from 0 to 1e+06, got +Inf", 13},
		{"rate type", "repeat: 2", "repeat: 2\n  cost_per_hour_usd: {plug: cheap}", diag.Error, `matrix.cost_per_hour_usd.plug must be a number, got "cheap"`, 13},
		{"effort unknown", "effort: [low]", "effort: [low, turbo]", diag.Warning, `matrix.effort[1] "turbo" is not one of low, medium, high, xhigh, max`, 11},
		{"effort duplicate", "effort: [low]", "effort: [low, low]", diag.Error, `duplicate effort "low" in matrix.effort`, 11},
		{"strategy required", "  strategy: cheapest_passing\n", "", diag.Error, "selection.strategy is required (cheapest_passing or fastest_passing)", 0},
		{"strategy unsupported", "strategy: cheapest_passing", "strategy: best", diag.Error, `unsupported selection strategy "best" (use cheapest_passing or fastest_passing)`, 19},
		{"pinned profile", "pinned: {profile: plug,", "pinned: {profile: ghost,", diag.Error, `selection.pinned.profile "ghost" is not in matrix.profiles`, 20},
		{"pinned model", "model: good, effort", "model: bad, effort", diag.Error, `selection.pinned.model "bad" is not in matrix.models.plug`, 20},
		{"pinned effort", "effort: low}", "effort: high}", diag.Error, `selection.pinned.effort "high" is not in matrix.effort`, 20},
		{"pinned fallback", "effort: low}", "effort: low, fallback_profile: ghost}", diag.Error, `selection.pinned.fallback_profile "ghost" is not in matrix.profiles`, 20},
		{"pinned no profile", "pinned: {profile: plug, ", "pinned: {", diag.Error, "selection.pinned.profile is required when a model or effort is pinned", 20},
		{"unknown key", "call: merge_judge\n", "call: merge_judge\nfoo: 1\n", diag.Warning, "top level: unknown key \"foo\"; expected one of `agent`, `app`, `call`,", 4},
		{"enum field missing", "expect: {intent: accept, confidence: 0.9}", "expect: {confidence: 0.9, reason: x}", diag.Warning, `example "e1" expect has no field "intent", which the enum comparator compares`, 17},
		{"enum no field", "comparator: {kind: enum, field: intent}\nexamples:\n  - name: e1\n    args: {pr_id: \"1\", merge_sha: abc}\n    expect: {intent: accept, confidence: 0.9}", "comparator: enum\nexamples:\n  - name: e1\n    args: {pr_id: \"1\", merge_sha: abc}\n    expect: {confidence: 0.9, reason: x}", diag.Error, `example "e1": enum comparator needs a field or single expected key`, 17},
		{"field not enum", "comparator: {kind: enum, field: intent}", "comparator: {kind: exact, field: intent}", diag.Warning, "comparator.field is only read by the enum comparator (kind is exact)", 13},
		{"unknown nested key", "task:\n", "task:\n  boundedness: {max_turn: 3}\n", diag.Warning, "task.boundedness: unknown key \"max_turn\"; did you mean `max_turns`?", 6},
		{"type list", "profiles: [plug]", "profiles: plug", diag.Error, "matrix.profiles: expected a list, got a string", 8},
		{"type mapping", "args: {pr_id: \"1\", merge_sha: abc}", "args: [1]", diag.Error, "examples[0].args must be a mapping", 16},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := baseDataset
			if !strings.Contains(src, c.from) {
				t.Fatalf("base does not contain %q", c.from)
			}
			src = strings.Replace(src, c.from, c.to, 1)
			p := filepath.Join(dir, "evals", "rule.yaml")
			if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := LoadDataset(p)
			if err != nil {
				t.Fatal(err)
			}
			v := Validate(d, nil)
			var hit *Finding
			for i, f := range v.Findings {
				if strings.Contains(f.Message, c.msg) {
					hit = &v.Findings[i]
				}
			}
			if hit == nil {
				t.Fatalf("no finding %q; got %v", c.msg, v.Findings)
			}
			if hit.Severity != c.sev {
				t.Errorf("severity %s, want %s", hit.Severity, c.sev)
			}
			if c.line != 0 && hit.Pos.Line != c.line {
				t.Errorf("line %d, want %d (%s)", hit.Pos.Line, c.line, hit.Message)
			}
			if hit.Pos.File != p {
				t.Errorf("file %q", hit.Pos.File)
			}
		})
	}
	// The base itself is clean.
	p := filepath.Join(dir, "evals", "rule.yaml")
	os.WriteFile(p, []byte(baseDataset), 0o644)
	d, _ := LoadDataset(p)
	if v := Validate(d, nil); len(v.Findings) != 0 {
		t.Errorf("base dataset findings: %v", v.Findings)
	}
}

// validateVariant writes baseDataset with from replaced by to as
// dir/evals/rule.yaml, loads and validates it, and returns the dataset and
// the findings' messages.
func validateVariant(t *testing.T, dir, from, to string) (*Dataset, []string) {
	t.Helper()
	if !strings.Contains(baseDataset, from) {
		t.Fatalf("base dataset has no %q", from)
	}
	p := filepath.Join(dir, "evals", "rule.yaml")
	if err := os.WriteFile(p, []byte(strings.Replace(baseDataset, from, to, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := LoadDataset(p)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, f := range Validate(d, nil).Findings {
		msgs = append(msgs, f.Message)
	}
	return d, msgs
}

// TestDatasetMergeKey: a merge key copies its mapping's keys, as in story
// files and as upstream reads a dataset (probed: its eval run says the
// same "duplicate example name" for this file); it is not an unknown key.
func TestDatasetMergeKey(t *testing.T) {
	dir := filepath.Dir(filepath.Dir(writeFixture(t, fixture{Profiles: "plug", Models: "    plug: [good]"})))
	const ex = "  - name: e1\n    args: {pr_id: \"1\", merge_sha: abc}\n    expect: {intent: accept, confidence: 0.9}\n"
	d, msgs := validateVariant(t, dir, ex, "  - &ex\n    "+ex[4:]+"  - <<: *ex\n")
	if len(d.Examples) != 2 || d.Examples[1].Name != "e1" || d.Examples[1].Expect["intent"] != "accept" || len(msgs) != 1 || msgs[0] != `duplicate example name "e1"` {
		t.Errorf("examples %+v, findings %q; want the merged copy of e1 and only its duplicate name", d.Examples, msgs)
	}
}

// A comparator with a field and no kind is one finding, "comparator is
// required", not also a warning that the field is read only by "enum"
// (which named an empty kind).
func TestComparatorFieldWithoutKind(t *testing.T) {
	dir := filepath.Dir(filepath.Dir(writeFixture(t, fixture{Profiles: "plug", Models: "    plug: [good]"})))
	_, msgs := validateVariant(t, dir, "comparator: {kind: enum, field: intent}", "comparator: {field: intent}")
	if len(msgs) != 1 || msgs[0] != "comparator is required" {
		t.Errorf("findings %q, want only %q", msgs, "comparator is required")
	}
}

// When app: is empty and there are errors, validation stops before loading.
func TestValidateStopsWithoutApp(t *testing.T) {
	d, err := parseDataset("/nowhere/x.yaml", "/nowhere/x.yaml", []byte("kind: agent_eval\ncall: c\ncomparator: exact\nexamples: [{name: a, expect: {x: 1}}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	v := Validate(d, nil)
	if got := v.Errors(); len(got) != 1 || got[0] != "app is required" || v.Story != nil {
		t.Errorf("errors %v", got)
	}
}

// FuzzParseDataset: any dataset bytes: a refusal starts with the file's
// name and names no Go type; a dataset taken validates without a panic.
func FuzzParseDataset(f *testing.F) {
	b, _ := os.ReadFile("testdata/pr-refinement/evals/merge_judge.yaml")
	f.Add(b)
	f.Add([]byte(baseDataset))
	f.Add([]byte("comparator: enum\nexamples: [{name: a, expect: {intent: x}}, {name: a}]\n"))
	f.Add([]byte("matrix: {profiles: &a [x], models: {x: *a}, repeat: -1}\n"))
	f.Add([]byte("selection: {pinned: 3}\ntask: []\n"))
	// examples merging one list: the repeated-key search checks it once
	f.Add([]byte("x: &L [{name: a}, {expect: {intent: x}}]\nexamples: [{<<: *L}, {<<: *L, args: {}}, {<<: [*L, {name: b}]}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := parseDataset("fuzz.yaml", "fuzz.yaml", data)
		if err != nil {
			refusal.Leads(t, data, err.Error(), "fuzz.yaml")
			return
		}
		_ = d.ComparatorLabel()
		_ = d.PinLabel()
		v := Validate(&Dataset{Path: "/nonexistent/fuzz.yaml", Raw: d.Raw, Kind: d.Kind, Call: d.Call, Comparator: d.Comparator, Examples: d.Examples, Matrix: d.Matrix, Selection: d.Selection, Task: d.Task, pos: d.pos}, nil)
		_ = v.OK()
	})
}

// TestExpectNotAMappingIsOneError: an expect that is a list or a scalar is
// "must be a mapping" (upstream stops at it as a YAML type error), not also
// validated as null against the schema.
func TestExpectNotAMappingIsOneError(t *testing.T) {
	dir := filepath.Dir(filepath.Dir(writeFixture(t, fixture{Profiles: "plug", Models: "    plug: [good]"})))
	for _, bad := range []string{"[1, 2]", "5", `"accept"`} {
		_, msgs := validateVariant(t, dir, "expect: {intent: accept, confidence: 0.9}", "expect: "+bad)
		all := strings.Join(msgs, "\n")
		if !strings.Contains(all, "examples[0].expect must be a mapping") || strings.Contains(all, "schema_invalid") {
			t.Errorf("expect: %s gave\n%s", bad, all)
		}
	}
}

// TestDatasetAliasTextBounded: a dataset's aliases repeat at most
// yamlnode.MaxAliasText of text, as a fixture file's do (a 1 MB anchor
// named under 3,000 keys of an example's args made kitsoki eval list end
// in 'fatal error: out of memory' encoding them as JSON); the error names
// the file and the place of the alias past the limit.
func TestDatasetAliasTextBounded(t *testing.T) {
	dataset := func(anchor, alias string, n int) []byte {
		var b strings.Builder
		b.WriteString("kind: agent_eval\napp: ../app.yaml\ncall: c\nexamples:\n  - name: e\n    args:\n      a: " + anchor + "\n")
		for i := range n {
			fmt.Fprintf(&b, "      k%d: %s\n", i, alias)
		}
		return []byte(b.String())
	}
	_, err := parseDataset("/p/evals/big.yaml", "evals/big.yaml", dataset(aliasmb.Anchors(), "*mb", 100))
	want := fmt.Sprintf("evals/big.yaml:%d:12: ", 7+yamlnode.MaxAliasText/aliasmb.Text)
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "MB of text by here") {
		t.Fatalf("a 1 MB anchor under 100 keys: %v, want an error starting %q", err, want)
	}
	d, err := parseDataset("/p/evals/ok.yaml", "evals/ok.yaml", dataset("&big short", "*big", 200))
	if err != nil || len(d.Examples) != 1 || len(d.Examples[0].Args) != 201 {
		t.Fatalf("a short anchor under 200 keys: %v", err)
	}
}

// A string field holding a list is refused at its dotted path, at the top
// level, in a nested block, in an example and under selection.pinned; the
// value read is empty.
func TestStringFieldsNamePlace(t *testing.T) {
	src := "kind: [a]\ntask: {goal: [a], boundedness: {tool_policy: {x: 1}}}\n" +
		"comparator: {kind: [a]}\nexamples: [{name: [a]}]\nselection: {strategy: [a], pinned: {fallback_profile: [a]}}\n"
	d, err := parseDataset("x.yaml", "x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range d.Findings {
		got = append(got, fmt.Sprintf("%d:%d %s", f.Pos.Line, f.Pos.Col, f.Message))
	}
	want := []string{
		"1:7 kind: expected a string, got a list",
		"2:14 task.goal: expected a string, got a list",
		"2:46 task.boundedness.tool_policy: expected a string, got a mapping",
		"3:20 comparator.kind: expected a string, got a list",
		"4:19 examples[0].name: expected a string, got a list",
		"5:23 selection.strategy: expected a string, got a list",
		"5:55 selection.pinned.fallback_profile: expected a string, got a list",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n %q\nwant\n %q", got, want)
	}
	if d.Kind != "" || d.Task.Goal != "" || d.Comparator.Kind != "" || d.Examples[0].Name != "" || d.Selection.Pinned.FallbackProfile != "" {
		t.Errorf("a refused string was kept: %+v", d)
	}
}
