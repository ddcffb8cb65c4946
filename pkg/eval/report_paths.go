package eval

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// DefaultReportPaths are a run's report paths under reports/<call>/: a
// timestamped file and latest.json, or shard-<i>-of-<n>.json.
func DefaultReportPaths(d *Dataset, r *Report, t time.Time) []string {
	dir := reportsDir(d)
	if r.Run != nil && r.Run.Shard != "" {
		var i, n int
		fmt.Sscanf(r.Run.Shard, "%d/%d", &i, &n)
		return []string{filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d.json", i, n))}
	}
	return []string{filepath.Join(dir, t.UTC().Format("20060102T150405Z")+".json"), filepath.Join(dir, "latest.json")}
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

// ReplacedLatest is the report a full run's latest.json held before this
// run replaces it (paths as [DefaultReportPaths] gives them), for
// [SinceLine]; nil when out was given, for a shard, and when there is none
// or it cannot be read.
func ReplacedLatest(paths []string, out string) *Report {
	if out != "" || len(paths) != 2 {
		return nil
	}
	prev, err := LoadReport(paths[1])
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
