package eval

import "slices"

// Diff compares two reports of the same eval, candidate by candidate
// (matched by profile/model/effort): what a new run changed against the
// previous one.
type Diff struct {
	// HashesChanged names the hashes (dataset_hash, prompt_hash,
	// schema_hash, toolbox_hash) present in both reports and different:
	// the two runs did not measure the same task.
	HashesChanged []string `json:"hashes_changed,omitempty"`
	// ModeChanged is "cassette -> live" (or the other way) when one
	// report was answered by a cassette and the other live: a cassette
	// run's candidates name no model unless matrix.models does, so the
	// same profile may read as removed and added.
	ModeChanged string `json:"mode_changed,omitempty"`
	// OldSelected and NewSelected are the selected candidates' keys
	// (Candidate.Key, as candidates[].key), "" when none was selected; the
	// labels name them as people read them.
	OldSelected      string `json:"old_selected,omitempty"`
	NewSelected      string `json:"new_selected,omitempty"`
	OldSelectedLabel string `json:"old_selected_label,omitempty"`
	NewSelectedLabel string `json:"new_selected_label,omitempty"`
	// Candidates are in the new report's order, then those only the old
	// one has.
	Candidates []CandidateDiff `json:"candidates"`
	// Regressions counts candidates that passed before and fail now, and
	// a selection lost (the old report selected one, the new none).
	Regressions int `json:"regressions"`
}

// CandidateDiff is one candidate in both reports, or in one.
type CandidateDiff struct {
	// Key is the identity the reports are matched on (profile/model/effort,
	// every part in its place); Label is the candidate as text shows it.
	Key    string     `json:"key"`
	Label  string     `json:"label"`
	Change string     `json:"change"` // added, removed, regressed, fixed, same verdict
	Old    *Candidate `json:"old,omitempty"`
	New    *Candidate `json:"new,omitempty"`
}

// Changes of a CandidateDiff.
const (
	ChangeAdded     = "added"
	ChangeRemoved   = "removed"
	ChangeRegressed = "regressed"
	ChangeFixed     = "fixed"
	ChangeSame      = "same verdict"
)

// Compare is the Diff from old to new.
func Compare(old, new *Report) *Diff {
	d := &Diff{Candidates: []CandidateDiff{}}
	d.OldSelected, d.OldSelectedLabel = old.Decision.selectedKey(), old.Decision.selectedLabel()
	d.NewSelected, d.NewSelectedLabel = new.Decision.selectedKey(), new.Decision.selectedLabel()
	if om, nm := runMode(old), runMode(new); om != "" && nm != "" && om != nm {
		d.ModeChanged = om + " -> " + nm
	}
	for _, f := range staleFields(old.Hashes, new.Hashes) {
		d.HashesChanged = append(d.HashesChanged, f+"_hash")
	}
	before := make(map[string]*Candidate, len(old.Candidates))
	for i := range old.Candidates {
		c := &old.Candidates[i]
		if _, dup := before[c.Key()]; !dup {
			before[c.Key()] = c
		}
	}
	seen := map[string]bool{}
	for i := range new.Candidates {
		c := &new.Candidates[i]
		k := c.Key()
		if seen[k] {
			continue
		}
		seen[k] = true
		cd := CandidateDiff{Key: k, Label: c.Label(), New: c, Old: before[k]}
		switch o := cd.Old; {
		case o == nil:
			cd.Change = ChangeAdded
		case o.Pass && !c.Pass:
			cd.Change = ChangeRegressed
			d.Regressions++
		case !o.Pass && c.Pass:
			cd.Change = ChangeFixed
		default:
			cd.Change = ChangeSame
		}
		d.Candidates = append(d.Candidates, cd)
	}
	for i := range old.Candidates {
		c := &old.Candidates[i]
		if !seen[c.Key()] {
			seen[c.Key()] = true
			d.Candidates = append(d.Candidates, CandidateDiff{Key: c.Key(), Label: c.Label(), Change: ChangeRemoved, Old: c})
		}
	}
	if d.OldSelected != "" && d.NewSelected == "" {
		d.Regressions++
	}
	return d
}

// runMode is the report's run.mode, "" for a report that does not say.
func runMode(r *Report) string {
	if r.Run == nil {
		return ""
	}
	return r.Run.Mode
}

// Regressed lists the labels of the candidates that regressed.
func (d *Diff) Regressed() []string {
	var out []string
	for _, c := range d.Candidates {
		if c.Change == ChangeRegressed {
			out = append(out, c.Label)
		}
	}
	return slices.Clip(out)
}
