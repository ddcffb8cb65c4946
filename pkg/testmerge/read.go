package testmerge

import (
	"fmt"
	"sort"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/coverage"
	"kitsoki/pkg/flowtest"
)

// Inputs are the files given to merge, sorted by kind in the order given.
type Inputs struct {
	Reports  []*flowtest.Report
	Profiles []*coverage.Profile
}

// Read reads each file as a JSON coverage profile or a --json report. An
// LCOV or Cobertura profile, an unreadable or forged file, or a report
// given twice is an error naming the file and the fix.
func Read(paths []string) (*Inputs, error) {
	in := &Inputs{}
	seen := map[[32]byte]string{}
	for _, a := range paths {
		data, err := safefile.ReadFile(a, coverage.MaxJSON)
		if err != nil {
			return nil, fmt.Errorf("%s: %s", a, safefile.Reason(err))
		}
		if kind := coverage.SniffOther(data); kind != "" {
			return nil, fmt.Errorf("%s: %s profiles cannot be merged exactly (a line's count hides which part it counts); write the shards' profiles with --cover-format json and choose the merged format here with --cover-format", a, kind)
		}
		if coverage.IsJSONProfile(data) {
			p, err := coverage.ParseJSON(a, data)
			if err != nil {
				return nil, err
			}
			in.Profiles = append(in.Profiles, p)
			continue
		}
		r, err := flowtest.ParseReport(a, data)
		if err != nil {
			return nil, err
		}
		if err := flowtest.SameShardReport(a, data, seen); err != nil {
			return nil, err
		}
		if err := flowtest.CheckShardReport(a, r, len(data)); err != nil {
			return nil, err
		}
		in.Reports = append(in.Reports, r)
	}
	return in, nil
}

// Report is the shards' reports merged: their counts summed, their
// results in file order (a stable sort, so one file's results keep the
// order they were given in).
func (in *Inputs) Report() *flowtest.Report {
	m := flowtest.MergeReports(in.Reports)
	sort.SliceStable(m.Results, func(i, j int) bool { return m.Results[i].File < m.Results[j].File })
	return m
}
