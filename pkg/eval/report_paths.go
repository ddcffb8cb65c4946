package eval

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// DefaultReportPaths are a run's report paths under reports/<call>/: a
// timestamped file and latest.json, or shard-<i>-of-<n>.json. When
// latest.json is the report of another dataset of the call
// ([LatestOfOther]), the timestamped file alone: that dataset's evidence
// stays, and d's latest is its newest report ([latestReport]).
func DefaultReportPaths(d *Dataset, r *Report, t time.Time) []string {
	dir := reportsDir(d)
	if r.Run != nil && r.Run.Shard != "" {
		var i, n int
		fmt.Sscanf(r.Run.Shard, "%d/%d", &i, &n)
		return []string{filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d.json", i, n))}
	}
	stamped := filepath.Join(dir, t.UTC().Format("20060102T150405Z")+".json")
	if LatestOfOther(d) != "" {
		return []string{stamped}
	}
	return []string{stamped, filepath.Join(dir, "latest.json")}
}

// LatestOfOther names the other dataset of d's call whose report
// reports/<call>/latest.json holds ("" when it is d's, or none parses).
func LatestOfOther(d *Dataset) string {
	if r := othersLatest(d); r != nil {
		return r.Eval
	}
	return ""
}

// ReportPaths are where a run's or a merge's report goes: out alone, made
// absolute, when it is given, else [DefaultReportPaths].
func ReportPaths(d *Dataset, r *Report, out string, t time.Time) ([]string, error) {
	if out == "" {
		return DefaultReportPaths(d, r, t), nil
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	return []string{abs}, nil
}

// ReplacedLatest is the dataset's latest report before a full run
// replaces it as d's latest, for [SinceLine]; nil when out was given, for
// a shard (r.Run.Shard), and when there is none or it cannot be read.
func ReplacedLatest(d *Dataset, r *Report, out string) *Report {
	if out != "" || (r.Run != nil && r.Run.Shard != "") {
		return nil
	}
	prev, err := latestReport(d)
	if err != nil {
		return nil
	}
	return prev
}

// WriteRunReport writes r to every path atomically, setting
// decision.evidence to the last path relative to the story directory.
func WriteRunReport(r *Report, storyDir string, paths []string) error {
	if len(paths) == 0 {
		return errors.New("eval run: no report path")
	}
	if r.Decision != nil && storyDir != "" {
		if rel, err := filepath.Rel(storyDir, paths[len(paths)-1]); err == nil {
			r.Decision.Evidence = filepath.ToSlash(rel)
		}
	}
	for _, p := range paths {
		if err := writeReport(p, r); err != nil {
			return err
		}
	}
	return nil
}
