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
	OldSelected   string   `json:"old_selected,omitempty"`
	NewSelected   string   `json:"new_selected,omitempty"`
	// Candidates are in the new report's order, then those only the old
	// one has.
	Candidates []CandidateDiff `json:"candidates"`
	// Regressions counts candidates that passed before and fail now, and
	// a selection lost (the old report selected one, the new none).
	Regressions int `json:"regressions"`
}

// CandidateDiff is one candidate in both reports, or in one.
type CandidateDiff struct {
	Key    string     `json:"key"`
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
	d := &Diff{OldSelected: selectedKey(old), NewSelected: selectedKey(new), Candidates: []CandidateDiff{}}
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
		cd := CandidateDiff{Key: k, New: c, Old: before[k]}
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
			d.Candidates = append(d.Candidates, CandidateDiff{Key: c.Key(), Change: ChangeRemoved, Old: c})
		}
	}
	if d.OldSelected != "" && d.NewSelected == "" {
		d.Regressions++
	}
	return d
}

func selectedKey(r *Report) string {
	if r.Decision == nil || r.Decision.SelectedProfile == "" {
		return ""
	}
	return candidateKey(r.Decision.SelectedProfile, r.Decision.SelectedModel, r.Decision.SelectedEffort)
}

// selectedLabel is the decision's candidate as people read it
// (candidateLabel), "" when none was selected.
func selectedLabel(r *Report) string {
	if r.Decision == nil || r.Decision.SelectedProfile == "" {
		return ""
	}
	return candidateLabel(r.Decision.SelectedProfile, r.Decision.SelectedModel, r.Decision.SelectedEffort)
}

// Label is the candidate as people read it (candidateLabel); Key stays
// the identity that diffs and JUnit names match on.
func (cd CandidateDiff) Label() string {
	c := cd.New
	if c == nil {
		c = cd.Old
	}
	if c == nil {
		return cd.Key
	}
	return candidateLabel(c.Profile, c.Model, c.Effort)
}

// Regressed lists the keys of the candidates that regressed.
func (d *Diff) Regressed() []string {
	var out []string
	for _, c := range d.Candidates {
		if c.Change == ChangeRegressed {
			out = append(out, c.Key)
		}
	}
	return slices.Clip(out)
}
