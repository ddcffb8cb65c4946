package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"time"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/jsoncost"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// Report is an agent_eval_report (reference C.6) plus kitsoki's additions
// (pass_k_rate, repeat, run metadata, shards' call records).
type Report struct {
	Kind        string `json:"kind"`
	Eval        string `json:"eval"`
	App         string `json:"app"`
	Call        string `json:"call"`
	GeneratedAt string `json:"generated_at"`
	Hashes
	AdherenceBar   *AdherenceBar   `json:"adherence_bar,omitempty"`
	Candidates     []Candidate     `json:"candidates"`
	Decision       *Decision       `json:"decision,omitempty"`
	FailureSamples []FailureSample `json:"failure_samples,omitempty"`

	// Run describes how the report was produced (absent in hand-written
	// fixtures).
	Run *RunInfo `json:"run,omitempty"`
	// Calls are the raw per-call records; only shard reports carry them.
	Calls []CallRecord `json:"calls,omitempty"`

	// Path is where the report was read from (not serialised).
	Path string `json:"-"`
}

// Candidate is one measured profile × model × effort.
type Candidate struct {
	Profile                 string   `json:"profile"`
	Backend                 string   `json:"backend,omitempty"`
	Provider                string   `json:"provider,omitempty"`
	Model                   string   `json:"model"`
	Effort                  string   `json:"effort,omitempty"`
	Pass                    bool     `json:"pass"`
	SchemaValidRate         float64  `json:"schema_valid_rate"`
	ComparatorPassRate      float64  `json:"comparator_pass_rate"`
	ContractConformanceRate float64  `json:"contract_conformance_rate"`
	P50LatencyMS            *int64   `json:"p50_latency_ms,omitempty"`
	P90LatencyMS            *int64   `json:"p90_latency_ms,omitempty"`
	P95LatencyMS            *int64   `json:"p95_latency_ms,omitempty"`
	P99LatencyMS            *int64   `json:"p99_latency_ms,omitempty"`
	AvgCostUSD              *float64 `json:"avg_cost_usd,omitempty"`
	// AvgInputTokens and AvgOutputTokens average meta.usage over the
	// calls that reported it.
	AvgInputTokens  *float64 `json:"avg_input_tokens,omitempty"`
	AvgOutputTokens *float64 `json:"avg_output_tokens,omitempty"`
	// CostPerHourUSD is the matrix's price per hour that gave the cost of
	// the calls whose backend reported none.
	CostPerHourUSD *float64 `json:"cost_per_hour_usd,omitempty"`
	P95CostUSD     *float64 `json:"p95_cost_usd,omitempty"`
	RetryRate      *float64 `json:"retry_rate,omitempty"`
	FallbackRate   *float64 `json:"fallback_rate,omitempty"`
	ExamplesRun    int      `json:"examples_run"`
	// PassKRate is pass^k: the share of examples whose every repeat passed.
	PassKRate *float64 `json:"pass_k_rate,omitempty"`
	// FlakyExamples are the examples that passed on some repeats and
	// failed on others (sorted, at most 50).
	FlakyExamples []string `json:"flaky_examples,omitempty"`
	// PassRateCI95 is the Wilson score interval [low, high] of
	// comparator_pass_rate at 95%: how far the rate may be from the
	// backend's true rate, given how few calls measured it.
	PassRateCI95 []float64 `json:"pass_rate_ci95,omitempty"`
	Repeat       int       `json:"repeat,omitempty"`
	// Rejected says why the adherence bar refused the candidate.
	Rejected string `json:"rejected,omitempty"`
}

// Key is "profile/model/effort", the identity of a candidate.
func (c Candidate) Key() string { return candidateKey(c.Profile, c.Model, c.Effort) }

// Label is the candidate as people read it (candidateLabel).
func (c Candidate) Label() string { return candidateLabel(c.Profile, c.Model, c.Effort) }

// candidateKey is the identity of the candidate profile × model × effort,
// wherever a report, a shard, a sample or a decision is matched with one:
// every part has its place, empty or not. It is never shown; people read
// candidateLabel.
func candidateKey(profile, model, effort string) string { return profile + "/" + model + "/" + effort }

// candidateLabel names a candidate wherever one is shown (eval run, show,
// diff and merge text, the diff JSON's labels, the decision's
// rejected_summary, JUnit case names, Markdown, HTML, errors) as
// profile[/model][ effort=e]: a cassette-only profile has no model and
// most matrices no effort, and an empty "/" or "effort=" would read as a
// value.
func candidateLabel(profile, model, effort string) string {
	s := profile
	if model != "" {
		s += "/" + model
	}
	if effort != "" {
		s += " effort=" + effort
	}
	return s
}

// Decision is the report's selection outcome.
type Decision struct {
	Strategy        string `json:"strategy"`
	SelectedProfile string `json:"selected_profile,omitempty"`
	SelectedModel   string `json:"selected_model,omitempty"`
	SelectedEffort  string `json:"selected_effort,omitempty"`
	Evidence        string `json:"evidence,omitempty"`
	RejectedSummary string `json:"rejected_summary,omitempty"`
	PinnedBy        string `json:"pinned_by,omitempty"`
	PinnedAt        string `json:"pinned_at,omitempty"`
	FallbackProfile string `json:"fallback_profile,omitempty"`
}

// selectedKey is the selected candidate's key, "" when none was selected
// (or d is nil).
func (d *Decision) selectedKey() string {
	if d == nil || d.SelectedProfile == "" {
		return ""
	}
	return candidateKey(d.SelectedProfile, d.SelectedModel, d.SelectedEffort)
}

// selectedLabel is the selected candidate's label, "" when none was
// selected (or d is nil).
func (d *Decision) selectedLabel() string {
	if d == nil || d.SelectedProfile == "" {
		return ""
	}
	return candidateLabel(d.SelectedProfile, d.SelectedModel, d.SelectedEffort)
}

// FailureSample is one failed call, expect against actual.
type FailureSample struct {
	Example string `json:"example"`
	Profile string `json:"profile"`
	Model   string `json:"model"`
	Effort  string `json:"effort,omitempty"`
	Repeat  int    `json:"repeat,omitempty"`
	Reason  string `json:"reason"`
	Expect  any    `json:"expect,omitempty"`
	Actual  any    `json:"actual,omitempty"`
}

// Label is the sample's candidate as people read it (candidateLabel).
func (fs FailureSample) Label() string { return candidateLabel(fs.Profile, fs.Model, fs.Effort) }

// RunInfo records how a report was produced.
type RunInfo struct {
	Mode        string `json:"mode"` // live or cassette
	Concurrency int    `json:"concurrency,omitempty"`
	Shard       string `json:"shard,omitempty"` // "i/n" for shard reports
	Jobs        int    `json:"jobs"`            // calls in this report
	TotalJobs   int    `json:"total_jobs"`      // calls of the whole matrix
	WallMS      int64  `json:"wall_ms,omitempty"`
}

// LoadReport reads a report. Like upstream, it is a plain unmarshal; a file
// that is not JSON is an error naming it.
func LoadReport(path string) (*Report, error) {
	if path == "-" {
		return nil, fmt.Errorf("eval report -: reports are not read from standard input; pass the path of a report .json file")
	}
	return loadReportIn(nil, path)
}

// loadReportIn is LoadReport of a report a repository names, read through
// root (nil: the operator named it, read as is).
func loadReportIn(root *safefile.Root, path string) (*Report, error) {
	var b []byte
	var err error
	if root == nil {
		b, err = safefile.ReadFile(path, safefile.Data)
	} else {
		b, err = root.ReadFile(path, safefile.Data)
	}
	if errors.Is(err, safefile.ErrOutsideRoot) {
		return nil, fmt.Errorf("eval report %s: %s", path, story.OutsideRootMessage(root, "report", path, err))
	}
	if err != nil {
		return nil, fmt.Errorf("eval report %s: %s", path, fileErrText(err, "give the path of a report .json file"))
	}
	return parseReport(path, b)
}

// parseReport decodes report bytes; name labels errors.
func parseReport(name string, b []byte) (*Report, error) {
	var r Report
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, syntaxErrorf("eval report %s: empty file (it must be an agent_eval_report JSON object)", name)
	}
	if limit, over := jsoncost.OverFor(b, reflect.TypeFor[Report](), 0); over {
		return nil, syntaxErrorf("eval report %s: %d bytes that would take over %d MiB once read (a report of many empty candidates, samples or calls); eval run writes each with every field, so this is not its report; give a report eval run or eval merge wrote", name, len(b), limit>>20)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, syntaxErrorf("eval report %s: %s (it must be an agent_eval_report JSON object)", name, jsonvalue.Reason(b, err))
	}
	if r.Kind != "agent_eval_report" {
		return nil, syntaxErrorf("eval report %s: kind is %q, want \"agent_eval_report\" (is this an eval report? eval run writes them under evals/reports/<call>/)", name, r.Kind)
	}
	r.Path = name
	return &r, nil
}

// reportsDir is <dataset dir>/reports/<call>.
func reportsDir(d *Dataset) string { return filepath.Join(d.Dir(), "reports", d.Call) }

// listReports lists <dataset dir>/reports/<call>/*.json through root,
// sorted. A reports directory a symlink leads out of is an error, unlisted,
// whether its target exists or what it holds: listed through the link, an
// outside directory holding latest.json made eval list warn and one
// without it read "unmeasured", telling a repository what the machine's
// directories hold (red team 47).
func listReports(root *safefile.Root, d *Dataset) ([]string, error) {
	m, outside, err := story.Glob(root, filepath.Join(story.QuoteGlob(reportsDir(d)), "*.json"))
	if len(outside) > 0 {
		err = &os.PathError{Op: "read", Path: outside[0], Err: safefile.ErrOutsideRoot}
		return nil, fmt.Errorf("eval report %s: %s", outside[0], story.OutsideRootMessage(root, "reports directory", outside[0], err))
	}
	if err != nil {
		return nil, nil // as filepath.Glob: a pattern it cannot list matches nothing
	}
	slices.Sort(m)
	return m, nil
}

// latestReport returns the dataset's latest report (reference C.2):
// latest.json, else the greatest generated_at; nil, nil for none. Only a
// latest.json that does not parse is an error. A report of another
// dataset of the call (see [Dataset.owns]) is not d's: latest.json too.
func latestReport(d *Dataset) (*Report, error) {
	root := datasetRoot(d.Path)
	defer root.Close()
	files, err := listReports(root, d)
	if err != nil {
		return nil, err
	}
	latest := filepath.Join(reportsDir(d), "latest.json")
	if slices.Contains(files, latest) {
		r, err := loadReportIn(root, latest)
		if err != nil || d.owns(root, r) {
			return r, err
		}
	}
	var best *Report
	var bestT time.Time
	for _, f := range files {
		r, err := loadReportIn(root, f)
		if err != nil || !d.owns(root, r) {
			continue
		}
		t, _ := time.Parse(time.RFC3339, r.GeneratedAt)
		if best == nil || t.After(bestT) || (t.Equal(bestT) && stampSeq(f) > stampSeq(best.Path)) {
			best, bestT = r, t
		}
	}
	return best, nil
}

// Marshal renders a report as indented JSON with a trailing newline.
func (r *Report) Marshal() ([]byte, error) {
	b, err := jsonvalue.MarshalIndentNoHTML(r)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// WriteFileAtomic writes a report file whole ([atomicfile.Write]): readers
// never see a partial file. The error names the path.
func WriteFileAtomic(path string, data []byte) error {
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %v", path, err)
	}
	return nil
}

// writeReport writes r atomically to path.
func writeReport(path string, r *Report) error {
	b, err := r.Marshal()
	if err != nil {
		return fmt.Errorf("eval report %s: %w", path, err)
	}
	return WriteFileAtomic(path, b)
}
