package eval

import "fmt"

// Statuses of a dataset (reference C.7; invalid comes from validation).
const (
	StatusUnmeasured = "unmeasured"
	StatusStale      = "stale"
	StatusPassing    = "passing"
	StatusFailing    = "failing"
	StatusInvalid    = "invalid"
)

// ReportStatus is a report's status against the current hashes:
// unmeasured, stale, passing or failing.
func ReportStatus(r *Report, cur Hashes) string {
	if r == nil {
		return StatusUnmeasured
	}
	if isStale(r.Hashes, cur) {
		return StatusStale
	}
	for _, c := range r.Candidates {
		if c.Pass {
			return StatusPassing
		}
	}
	return StatusFailing
}

// isStale reports whether any hash is known on both sides and differs.
func isStale(rep, cur Hashes) bool { return len(staleFields(rep, cur)) > 0 }

// staleFields names the hashes known on both sides that differ
// ("dataset", "prompt", "schema", "toolbox", in that order).
func staleFields(rep, cur Hashes) []string {
	var out []string
	for _, h := range [][3]string{
		{"dataset", rep.Dataset, cur.Dataset}, {"prompt", rep.Prompt, cur.Prompt},
		{"schema", rep.Schema, cur.Schema}, {"toolbox", rep.Toolbox, cur.Toolbox},
	} {
		if h[1] != "" && h[2] != "" && h[1] != h[2] {
			out = append(out, h[0])
		}
	}
	return out
}

// DatasetStatus validates d and returns its status with the latest report
// (nil when there is none or the dataset is invalid).
func DatasetStatus(v *Validation) (string, *Report, error) {
	if !v.OK() {
		return StatusInvalid, nil, nil
	}
	r, err := latestReport(v.Dataset)
	if err != nil {
		return StatusInvalid, nil, err
	}
	return ReportStatus(r, v.Hashes), r, nil
}

// Verdict is how a run or merged report of v's dataset ends: an error
// when no candidate passed the adherence bar (stale counts as not
// passing), nil when one did or when r is one shard's part, which only
// the merge of all parts can judge.
func (v *Validation) Verdict(r *Report) error {
	if r.Run != nil && r.Run.Shard != "" {
		return nil
	}
	if ReportStatus(r, v.Hashes) != StatusPassing {
		return fmt.Errorf("eval %s: no candidate passed the adherence bar", v.Dataset.Call)
	}
	return nil
}
