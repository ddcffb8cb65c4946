package eval

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/diag"
)

// DatasetSummary is what eval show --json prints for a dataset (fields in
// the order of the keys of the map it replaced, so the bytes stay).
type DatasetSummary struct {
	Call         *ShownCall `json:"call"`
	Dataset      string     `json:"dataset"`
	Errors       []string   `json:"errors"`
	LatestReport *string    `json:"latest_report"` // null when there is none
	Status       string     `json:"status"`
	Warnings     []string   `json:"warnings"`
}

// NewDatasetSummary sums up v with its status and latest report (nil when
// none).
func NewDatasetSummary(v *Validation, status string, latest *Report) DatasetSummary {
	s := DatasetSummary{Call: v.ShownCall(), Dataset: v.Dataset.Path, Errors: v.Errors(), Status: status, Warnings: v.Warnings()}
	if latest != nil {
		s.LatestReport = &latest.Path
	}
	return s
}

// WriteDatasetText writes what eval show prints for a dataset: its call
// site, status, latest report and selection, then every finding.
func WriteDatasetText(w io.Writer, v *Validation, status string, latest *Report) {
	d := v.Dataset
	cs := cmp.Or(v.CallSite, &CallSite{Call: d.Call})
	fmt.Fprintf(w, "call: %s\nhandler: %s\nstate: %s\nschema: %s\ncomparator: %s\nstatus: %s\n",
		cell(cs.Call), cell(cs.Handler), cell(cs.StatePath), cell(cs.SchemaPath), cell(d.ComparatorLabel()), status)
	if latest != nil {
		fmt.Fprintf(w, "latest report: %s\n", cell(latest.Path))
		if dec := latest.Decision; dec != nil && dec.SelectedProfile != "" {
			fmt.Fprintf(w, "selected: %s (%s)\n", cell(dec.selectedLabel()), cell(dec.Strategy))
		}
	}
	WriteFindings(w, v.Named(v.Findings))
}

// Named is fs with each file named as the command line named the
// dataset: relative to the working directory when it was given so, as
// kitsoki validate names the files it checks.
func (v *Validation) Named(fs []Finding) []Finding {
	d := v.Dataset
	if d == nil || d.shown == "" {
		return fs
	}
	out := slices.Clone(fs)
	for i := range out {
		out[i].Pos.File = asNamed(filepath.Dir(d.Path), filepath.Dir(d.shown), out[i].Pos.File)
	}
	return out
}

// WriteFindings writes each finding on a line of its own, as eval show,
// run and merge print them: WARN or ERROR, the file and place, the
// message.
func WriteFindings(w io.Writer, fs []Finding) {
	for _, f := range fs {
		tag := "ERROR"
		if f.Severity == diag.Warning {
			tag = "WARN"
		}
		if f.Pos.Line > 0 {
			fmt.Fprintf(w, "%s: %s:%d:%d: %s\n", tag, cell(f.Pos.File), f.Pos.Line, f.Pos.Col, f.Message)
		} else {
			fmt.Fprintf(w, "%s: %s: %s\n", tag, cell(f.Pos.File), f.Message)
		}
	}
}

// WriteReportText writes a report's candidates (at most maxHTMLRows, one
// line each) and its decision, as eval show, run and merge print them.
func WriteReportText(w io.Writer, r *Report) {
	fmt.Fprintf(w, "eval: %s\ncall: %s\nstatus candidates: %d\n", cell(r.Eval), cell(r.Call), len(r.Candidates))
	cands := capRows(r.Candidates)
	first := map[string]*FailureSample{}
	for i := range r.FailureSamples {
		fs := &r.FailureSamples[i]
		if k := candidateKey(fs.Profile, fs.Model, fs.Effort); first[k] == nil {
			first[k] = fs
		}
	}
	for _, c := range cands {
		fmt.Fprintf(w, "- %s %s pass_rate=%.2f cost=%.6f p95=%dms\n", cell(c.Label()), verdict(c.Pass), c.ComparatorPassRate, valueOr0(c.AvgCostUSD), valueOr0(c.P95LatencyMS))
		if c.Pass {
			continue
		}
		// Why it failed, without opening the report.
		if c.Rejected != "" {
			fmt.Fprintf(w, "  rejected: %s\n", cell(c.Rejected))
		}
		// upstream's samples name no effort
		if fs := cmp.Or(first[c.Key()], first[candidateKey(c.Profile, c.Model, "")]); fs != nil {
			rep := ""
			if c.Repeat > 1 {
				rep = fmt.Sprintf(" repeat %d", fs.Repeat)
			}
			fmt.Fprintf(w, "  first failure: example %s%s: %s\n", cell(fs.Example), rep, cell(fs.Reason))
		}
	}
	writeMore(w, len(r.Candidates)-len(cands))
	if d := r.Decision; d != nil {
		if d.SelectedProfile != "" {
			fmt.Fprintf(w, "decision: %s -> %s\n", cell(d.Strategy), cell(d.selectedLabel()))
		} else {
			fmt.Fprintf(w, "decision: %s -> no candidate passed\n", cell(d.Strategy))
		}
	}
}

// WriteDiffText writes d, the comparison of the reports at oldPath and
// newPath of call, as eval diff prints it.
func WriteDiffText(w io.Writer, call, oldPath, newPath string, d *Diff) {
	fmt.Fprintf(w, "eval: %s\nold: %s\nnew: %s\n", cell(call), cell(oldPath), cell(newPath))
	if len(d.HashesChanged) > 0 {
		fmt.Fprintf(w, "warning: %s changed: the two runs did not measure the same task\n", strings.Join(d.HashesChanged, ", "))
	}
	if d.ModeChanged != "" {
		fmt.Fprintf(w, "warning: run mode %s: a cassette run's candidates name no model unless matrix.models does, so a profile may read as removed and added\n", cell(d.ModeChanged))
	}
	fmt.Fprintf(w, "selected: %s -> %s\n", orNone(d.OldSelectedLabel), orNone(d.NewSelectedLabel))
	rows := capRows(d.Candidates)
	for _, cd := range rows {
		fmt.Fprintf(w, "- %s %s", cell(cd.Label), cd.Change)
		if o, n := cd.Old, cd.New; o != nil && n != nil {
			fmt.Fprintf(w, " (%s -> %s): pass_rate %.2f -> %.2f (%+.2f)", verdict(o.Pass), verdict(n.Pass),
				o.ComparatorPassRate, n.ComparatorPassRate, n.ComparatorPassRate-o.ComparatorPassRate)
			if o.PassKRate != nil && n.PassKRate != nil {
				fmt.Fprintf(w, ", pass^k %.2f -> %.2f", *o.PassKRate, *n.PassKRate)
			}
			if o, n := o.P95LatencyMS, n.P95LatencyMS; o != nil && n != nil {
				fmt.Fprintf(w, ", p95 %dms -> %dms (%+dms)", *o, *n, *n-*o)
			}
			if o, n := o.AvgCostUSD, n.AvgCostUSD; o != nil && n != nil {
				fmt.Fprintf(w, ", avg cost $%.6f -> $%.6f (%+.6f)", *o, *n, *n-*o)
			}
		}
		fmt.Fprintln(w)
	}
	writeMore(w, len(d.Candidates)-len(rows))
	if d.Regressions == 0 {
		fmt.Fprintln(w, "regressions: none")
		return
	}
	var what []string
	for _, k := range d.Regressed() {
		what = append(what, cell(k))
	}
	if d.OldSelected != "" && d.NewSelected == "" {
		what = append(what, "no candidate selected any more")
	}
	fmt.Fprintf(w, "regressions: %d (%s)\n", d.Regressions, strings.Join(what, "; "))
}

// SinceLine is eval run's one-line comparison of r with prev, the
// dataset's latest report before it (latest.json, or the dataset's newest
// report when latest.json is another dataset's): verdict changes and the
// selection.
func SinceLine(prev, r *Report) string {
	d := Compare(prev, r)
	var parts []string
	for _, ch := range []string{ChangeRegressed, ChangeFixed, ChangeAdded, ChangeRemoved} {
		var keys []string
		for _, cd := range d.Candidates {
			if cd.Change == ch {
				keys = append(keys, cell(cd.Label))
			}
		}
		if len(keys) > 3 {
			keys = append(keys[:3], fmt.Sprintf("%d more", len(keys)-3))
		}
		if len(keys) > 0 {
			parts = append(parts, ch+" "+strings.Join(keys, ", "))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "no verdict changed")
	}
	if d.OldSelected != d.NewSelected {
		parts = append(parts, "selected "+orNone(d.OldSelectedLabel)+" -> "+orNone(d.NewSelectedLabel))
	}
	if len(d.HashesChanged) > 0 {
		parts = append(parts, strings.Join(d.HashesChanged, ", ")+" changed since")
	}
	name := "latest.json"
	if prev.Path != "" {
		name = filepath.Base(prev.Path)
	}
	return fmt.Sprintf("since the previous %s (%s): %s", cell(name), cell(prev.GeneratedAt), strings.Join(parts, "; "))
}

// writeMore says how many rows a capped list left out.
func writeMore(w io.Writer, more int) {
	if more > 0 {
		fmt.Fprintf(w, "- %d more candidates not shown; see --json\n", more)
	}
}

// cell escapes a value printed in a field of one line, where a newline or
// tab could forge a row or column, past diag.MaxMessage bytes clipped as
// a finding's message is (a dataset or a report names calls, profiles and
// models of any size).
func cell(s string) string { return termsafe.Cell(diag.ClipMessage(s)) }

func verdict(pass bool) string {
	if pass {
		return "pass"
	}
	return "fail"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return cell(s)
}

// ListRow is one dataset as eval list shows it.
type ListRow struct {
	Call       string `json:"call"`
	Status     string `json:"status"`
	Comparator string `json:"comparator"`
	Pin        string `json:"pin,omitempty"`
	Path       string `json:"path"`
}

// List loads and validates each dataset file for eval list, never nil;
// warn gets what does not stop the listing, with the dataset file it is
// about: why a dataset is listed invalid (it does not load, or does not
// validate) or a latest.json that does not parse.
func List(files []string, warn func(file string, err error)) []ListRow {
	loader := &StoryLoader{}
	rows := []ListRow{}
	for _, f := range files {
		d, err := LoadDataset(f)
		if err != nil {
			rows = append(rows, ListRow{Status: StatusInvalid, Path: f})
			warn(f, err)
			continue
		}
		v := Validate(d, loader)
		st, _, err := DatasetStatus(v)
		if err == nil && st == StatusInvalid {
			err = invalidReason(v)
		}
		if err != nil {
			warn(f, err)
		}
		rows = append(rows, ListRow{Call: d.Call, Status: st, Comparator: d.ComparatorLabel(), Pin: d.PinLabel(), Path: f})
	}
	return rows
}

// WriteListText writes eval list's rows, one tab-separated line each.
func WriteListText(w io.Writer, rows []ListRow) {
	for _, r := range rows {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", cell(r.Call), cell(r.Status), cell(r.Comparator), cell(r.Pin), cell(r.Path))
	}
}
