package eval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// Dataset is one parsed evals/*.yaml file (kind: agent_eval).
type Dataset struct {
	// Path is the dataset file as given (made absolute by LoadDataset).
	Path string
	// shown is the dataset's path as the command line gave it.
	shown string
	// Raw is the file's bytes exactly as read (the dataset hash input).
	Raw []byte

	Kind       string
	App        string // relative to the dataset's directory
	Call       string // the invoke id: of a host.agent.* effect
	Agent      string // optional persona; must equal the call site's with.agent
	Task       Task
	Matrix     Matrix
	Comparator Comparator
	Examples   []Example
	Selection  *DatasetSelection

	// Findings are the problems found while parsing (types, unknown keys);
	// none for a file of another kind (otherKind).
	Findings []Finding
	// otherKind says what the file is when it is another kitsoki file (a
	// story, a cassette): see otherKind.
	otherKind string
	pos       map[string]story.Pos
}

// Task is the dataset's task: block.
type Task struct {
	Goal         string
	Boundedness  *Boundedness
	AdherenceBar *AdherenceBar
}

// Boundedness is task.boundedness.
type Boundedness struct {
	MaxTurns        *int   `json:"max_turns,omitempty"`
	ToolPolicy      string `json:"tool_policy,omitempty"`
	PreparedContext *bool  `json:"prepared_context,omitempty"`
}

// AdherenceBar is task.adherence_bar, copied into every report.
type AdherenceBar struct {
	MinPassRate     float64  `json:"min_pass_rate"`
	MaxP95LatencyMS *int64   `json:"max_p95_latency_ms,omitempty"`
	MaxAvgCostUSD   *float64 `json:"max_avg_cost_usd,omitempty"`
	// MinPassKRate bars a candidate whose pass^k (the share of examples
	// whose every repeat passed) is below it: consistency, not only an
	// average.
	MinPassKRate *float64 `json:"min_pass_k_rate,omitempty"`
}

// Matrix is the candidate matrix: profiles × models[profile] × effort,
// each run Repeat times per example.
type Matrix struct {
	Profiles []string
	Models   map[string][]string
	Effort   []string
	Repeat   int
	// CostPerHourUSD prices a profile's calls by time (a local model's
	// GPU or machine hour) where its backend reports no cost_usd.
	CostPerHourUSD map[string]float64
}

// Comparator is the comparator: scalar or {kind, field, agent, prompt};
// Agent and Prompt are the judge's alias and optional prompt file.
type Comparator struct {
	Kind   string
	Field  string
	Agent  string
	Prompt string
}

// Example is one examples[] entry. Values are JSON-normalised (numbers are
// float64).
type Example struct {
	Name   string
	Args   map[string]any
	Expect map[string]any
	Actual map[string]any
	Pos    story.Pos

	expectNotObject bool // expect: was written but is not a mapping (already an error)
}

// DatasetSelection is the dataset's selection: block.
type DatasetSelection struct {
	Strategy string
	Pinned   *Pin
}

// Pin is selection.pinned.
type Pin struct {
	Profile         string
	Model           string
	Effort          string
	Evidence        string
	FallbackProfile string
}

// Finding is one validation or parse problem of a dataset.
type Finding struct {
	Pos      story.Pos
	Severity diag.Severity
	Message  string
	// cassetteProfile is the matrix profile of a "not an agent_plugins
	// alias" warning: a --cassette run reaches such a profile as
	// agent.<profile> when the cassette answers it (ForCassette).
	cassetteProfile string
	// blocksRun marks a warning eval run cannot go past: an empty matrix,
	// a profile nothing answers (ForRun makes it an error of the run).
	blocksRun bool
}

// Diagnostic renders f as a diag.Diagnostic of rule ruleEval ("eval").
func (f Finding) Diagnostic() diag.Diagnostic {
	return diag.Diagnostic{File: f.Pos.File, Line: f.Pos.Line, Col: f.Pos.Col, Severity: f.Severity, Rule: ruleEval.ID, Message: f.Message}
}

// PosOf returns the position of a dotted key path ("examples[1].expect"),
// or the file's when it is unknown.
func (d *Dataset) PosOf(key string) story.Pos {
	if p, ok := d.pos[key]; ok {
		return p
	}
	return story.Pos{File: d.Path}
}

// repeat is matrix.repeat, at least 1: how many times each example runs
// per candidate.
func (d *Dataset) repeat() int { return max(d.Matrix.Repeat, 1) }

// Dir is the directory holding the dataset file.
func (d *Dataset) Dir() string { return filepath.Dir(d.Path) }

// ComparatorLabel is the comparator as eval list and show print it: the
// kind alone, as upstream (docs/compat/trace-eval.md C.10).
func (d *Dataset) ComparatorLabel() string {
	return d.Comparator.Kind
}

// PinLabel is the pinned candidate's label without its effort, as
// upstream's pin column names it ("profile/model", or "profile"), when
// selection.pinned.profile is set, else "".
func (d *Dataset) PinLabel() string {
	if d.Selection == nil || d.Selection.Pinned == nil || d.Selection.Pinned.Profile == "" {
		return ""
	}
	return candidateLabel(d.Selection.Pinned.Profile, d.Selection.Pinned.Model, "")
}

// LoadDataset reads and parses a dataset file. A read or YAML syntax error is
// returned as an error (there is no dataset); type problems are Findings.
func LoadDataset(path string) (*Dataset, error) {
	if path == "-" {
		return nil, fmt.Errorf("eval dataset -: datasets are not read from standard input (app: and schemas resolve beside the file); pass the path of an evals/*.yaml file")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("eval dataset %s: %w", path, err)
	}
	return loadDatasetShown(abs, path)
}

// loadDatasetShown is LoadDataset of the file at abs, naming it shown in
// its messages.
func loadDatasetShown(abs, shown string) (*Dataset, error) {
	data, outside, err := readDataset(abs, shown)
	if outside {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("eval dataset %s: %s", shown, fileErrText(err, "give the path of an evals/*.yaml file"))
	}
	return parseDataset(abs, shown, data)
}

// Discover lists the datasets under root: root itself when it is a file,
// else root/evals/*.yaml sorted (not .yml, as upstream).
func Discover(root string) ([]string, error) {
	if root == "-" {
		return nil, fmt.Errorf("eval: datasets are not read from standard input; give a story directory or an evals/*.yaml file")
	}
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("eval: %s: %s", root, fileErrText(err, "give a story directory or an evals/*.yaml file"))
	}
	if !fi.IsDir() {
		abs, err := filepath.Abs(root)
		return []string{abs}, err
	}
	// As filepath.Glob(root/evals/*.yaml), through the project root: an
	// evals/ that is a symlink leading out is not listed (its names would
	// be printed).
	evals := filepath.Join(root, "evals")
	absEvals, err := filepath.Abs(evals)
	if err != nil {
		return nil, err
	}
	pr, _ := story.ProjectRoot(filepath.Dir(absEvals))
	sr := safefile.NewRoot(pr)
	defer sr.Close()
	entries, err := sr.ReadDir(absEvals, 0)
	if errors.Is(err, safefile.ErrOutsideRoot) {
		return nil, fmt.Errorf("eval: %s goes through a symlink leading out of the project root %s; nothing outside the root is listed: put the datasets themselves there", evals, pr)
	}
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".yaml") {
			out = append(out, filepath.Join(absEvals, e.Name()))
		}
	}
	return out, nil
}
