package eval

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"kitsoki/internal/atomicfile"
)

// ReportDest is where a run's or a merge's report goes.
type ReportDest struct {
	// Paths are written in order; decision.evidence names the last.
	Paths []string
	// Stamped says Paths[0] is a new timestamped report, which never
	// replaces one: a name taken (two runs within one second) moves it to
	// the next free <timestamp>_<n>.json ([WriteRunReport]).
	Stamped bool
}

// stampLayout is a timestamped report's name, to the second, UTC.
const stampLayout = "20060102T150405Z"

// maxStampTries bounds the _<n> names a timestamped report tries.
const maxStampTries = 1000

// DefaultReportPaths are a run's report paths under reports/<call>/: a
// timestamped file and latest.json, or shard-<i>-of-<n>.json. When
// latest.json is to stay ([KeptLatest]: another dataset's evidence, or
// live evidence under a --cassette replay), the timestamped file alone.
func DefaultReportPaths(d *Dataset, r *Report, t time.Time) ReportDest {
	dir := reportsDir(d)
	if r.Run != nil && r.Run.Shard != "" {
		var i, n int
		fmt.Sscanf(r.Run.Shard, "%d/%d", &i, &n)
		return ReportDest{Paths: []string{filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d.json", i, n))}}
	}
	stamped := filepath.Join(dir, t.UTC().Format(stampLayout)+".json")
	if KeptLatest(d, r) != "" {
		return ReportDest{Paths: []string{stamped}, Stamped: true}
	}
	return ReportDest{Paths: []string{stamped, filepath.Join(dir, "latest.json")}, Stamped: true}
}

// stampedName is the n-th name a timestamped report tries: path itself,
// then <timestamp>_<n>.json.
func stampedName(path string, n int) string {
	if n == 1 {
		return path
	}
	return strings.TrimSuffix(path, ".json") + "_" + strconv.Itoa(n) + ".json"
}

// stampSeq is n of a report named <timestamp>_<n>.json, 1 for any other
// name: of two reports generated in one second, the greater n is the newer.
func stampSeq(path string) int {
	base := strings.TrimSuffix(filepath.Base(path), ".json")
	stamp, seq, ok := strings.Cut(base, "_")
	if !ok {
		return 1
	}
	n, err := strconv.Atoi(seq)
	if _, terr := time.Parse(stampLayout, stamp); err != nil || terr != nil || n < 2 {
		return 1
	}
	return n
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
func ReportPaths(d *Dataset, r *Report, out string, t time.Time) (ReportDest, error) {
	if out == "" {
		return DefaultReportPaths(d, r, t), nil
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return ReportDest{}, err
	}
	return ReportDest{Paths: []string{abs}}, nil
}

// ReplacedLatest is the dataset's latest report before a full run
// replaces it as d's latest, for [SinceLine]; nil when out was given, for
// a shard (r.Run.Shard), for a replay that keeps live evidence
// ([KeptLatest]), and when there is none or it cannot be read.
func ReplacedLatest(d *Dataset, r *Report, out string) *Report {
	if out != "" || (r.Run != nil && (r.Run.Shard != "" || r.Run.Mode == "cassette" && liveLatest(d) != nil)) {
		return nil
	}
	prev, err := latestReport(d)
	if err != nil {
		return nil
	}
	return prev
}

// WriteRunReport writes r to every path of dest atomically, setting
// decision.evidence to the last path relative to the story directory,
// and returns the paths written: a stamped report whose name another run
// took first is written as the next free <timestamp>_<n>.json, never
// over it.
func WriteRunReport(r *Report, storyDir string, dest ReportDest) ([]string, error) {
	paths := slices.Clone(dest.Paths)
	if len(paths) == 0 {
		return nil, errors.New("eval run: no report path")
	}
	setEvidence(r, storyDir, paths[len(paths)-1])
	first := 0
	if dest.Stamped {
		p, err := writeStamped(r, storyDir, paths)
		if err != nil {
			return nil, err
		}
		paths[0], first = p, 1
	}
	for _, p := range paths[first:] {
		if err := writeReport(p, r); err != nil {
			return nil, err
		}
	}
	return paths, nil
}

// writeStamped writes r as a new file at paths[0] or the first free
// name after it ([stampedName]) and returns the name written. When it is
// the last path, decision.evidence names it.
func writeStamped(r *Report, storyDir string, paths []string) (string, error) {
	for n := 1; n <= maxStampTries; n++ {
		p := stampedName(paths[0], n)
		if len(paths) == 1 {
			setEvidence(r, storyDir, p)
		}
		b, err := r.Marshal()
		if err != nil {
			return "", fmt.Errorf("eval report %s: %w", p, err)
		}
		err = atomicfile.WriteNew(p, b, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("write %s: %v", p, err)
		}
		return p, nil
	}
	return "", fmt.Errorf("write %s: it and %d more names like it (_2 … _%d) are taken; remove old reports from %s", paths[0], maxStampTries-1, maxStampTries, filepath.Dir(paths[0]))
}

// setEvidence points decision.evidence at path, relative to storyDir.
func setEvidence(r *Report, storyDir, path string) {
	if r.Decision != nil && storyDir != "" {
		if rel, err := filepath.Rel(storyDir, path); err == nil {
			r.Decision.Evidence = filepath.ToSlash(rel)
		}
	}
}
