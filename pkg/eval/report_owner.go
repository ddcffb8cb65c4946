package eval

import (
	"path/filepath"
	"strings"

	"kitsoki/internal/safefile"
)

// EvalName is the name a report's eval field gives its dataset: the
// dataset file's name without extension (merge_judge for
// evals/merge_judge.yaml). Two datasets of one call share
// reports/<call>/ and are told apart by it.
func (d *Dataset) EvalName() string {
	base := filepath.Base(d.Path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// owns reports whether r is a report of d: its eval names d, or it names
// no dataset beside d (empty, or the call, as reports written before eval
// named the dataset and upstream's fixtures do) and so is the call's.
func (d *Dataset) owns(root *safefile.Root, r *Report) bool {
	if r.Eval == d.EvalName() {
		return true
	}
	if r.Eval != "" && r.Eval != d.Call {
		return false
	}
	if r.Eval == "" {
		return true
	}
	for _, ext := range []string{".yaml", ".yml"} {
		if _, err := root.Stat(filepath.Join(d.Dir(), r.Eval+ext)); err == nil {
			return false // another dataset of the call is named so
		}
	}
	return true
}

// othersLatest is the report in d's reports/<call>/latest.json when it
// parses and belongs to another dataset of the call, whose evidence a
// run of d must leave alone; nil otherwise.
func othersLatest(d *Dataset) *Report {
	root := datasetRoot(d.Path)
	defer root.Close()
	r, err := loadReportIn(root, filepath.Join(reportsDir(d), "latest.json"))
	if err != nil || d.owns(root, r) {
		return nil
	}
	return r
}
