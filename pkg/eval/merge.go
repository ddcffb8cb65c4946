package eval

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Merge combines the shard reports of one matrix (eval run --shard i/n),
// recomputing every metric from their call records. Each shard must be
// present once, from the same dataset and candidates.
func Merge(v *Validation, shards []*Report) (*Report, error) {
	if !v.OK() {
		return nil, fmt.Errorf("%s: eval validation failed", v.Dataset.Path)
	}
	if len(shards) == 0 {
		return nil, fmt.Errorf("eval merge: no shard reports given")
	}
	n := -1
	seen := map[int]string{}
	var recs []CallRecord
	first := shards[0]
	for _, s := range shards {
		if s.Run == nil || s.Run.Shard == "" {
			return nil, fmt.Errorf("eval merge: %s is not a shard report (it has no run.shard; produce shards with eval run --shard i/n)", s.Path)
		}
		var i, m int
		if _, err := fmt.Sscanf(s.Run.Shard, "%d/%d", &i, &m); err != nil || i < 1 || i > m {
			return nil, fmt.Errorf("eval merge: %s: run.shard %q is not i/n", s.Path, s.Run.Shard)
		}
		if n < 0 {
			n = m
		} else if m != n {
			return nil, fmt.Errorf("eval merge: %s is shard %s but %s is shard %s: every shard must split the matrix the same way", s.Path, s.Run.Shard, first.Path, first.Run.Shard)
		}
		if prev, dup := seen[i]; dup {
			return nil, fmt.Errorf("eval merge: shard %d/%d given twice (%s and %s)", i, n, prev, s.Path)
		}
		seen[i] = s.Path
		if s.Call != v.Dataset.Call {
			return nil, fmt.Errorf("eval merge: %s measures call %q, the dataset's call is %q", s.Path, s.Call, v.Dataset.Call)
		}
		if s.Dataset != v.Hashes.Dataset || isStale(s.Hashes, v.Hashes) {
			changed := staleFields(s.Hashes, v.Hashes)
			if s.Dataset != v.Hashes.Dataset && !slices.Contains(changed, "dataset") {
				changed = append(changed, "dataset")
			}
			return nil, fmt.Errorf("eval merge: %s was produced from other inputs (%v changed); re-run that shard", s.Path, changed)
		}
		if len(s.Candidates) != len(first.Candidates) {
			return nil, fmt.Errorf("eval merge: %s has %d candidates, %s has %d", s.Path, len(s.Candidates), first.Path, len(first.Candidates))
		}
		for k := range s.Candidates {
			if s.Candidates[k].Key() != first.Candidates[k].Key() {
				return nil, fmt.Errorf("eval merge: %s candidate %d is %q, %s has %q", s.Path, k, s.Candidates[k].Label(), first.Path, first.Candidates[k].Label())
			}
		}
		recs = append(recs, s.Calls...)
	}
	if len(seen) < n {
		// n is the shards' own word: list the first few missing, in
		// steps bounded by the shards given, not by n.
		var missing []int
		for i := 1; len(missing) < maxListedShards && len(missing) < n-len(seen); i++ {
			if _, ok := seen[i]; !ok {
				missing = append(missing, i)
			}
		}
		more := ""
		if rest := n - len(seen) - len(missing); rest > 0 {
			more = fmt.Sprintf(" and %d more", rest)
		}
		return nil, fmt.Errorf("eval merge: missing shard(s) %v%s of %d", missing, more, n)
	}
	if err := checkShardCandidates(v, first); err != nil {
		return nil, err
	}
	if err := checkShardCalls(v, shards, n, len(first.Candidates)); err != nil {
		return nil, err
	}
	slices.SortStableFunc(recs, func(a, b CallRecord) int { return cmp.Compare(a.Candidate, b.Candidate) })
	specs := make([]CandidateSpec, len(first.Candidates))
	for k, c := range first.Candidates {
		specs[k] = CandidateSpec{Profile: c.Profile, Backend: c.Backend, Model: c.Model, Effort: c.Effort}.withRate(v.Dataset)
	}
	r := newReport(v, specs, recs, 0)
	r.GeneratedAt = slices.MaxFunc(shards, func(a, b *Report) int { return cmp.Compare(a.GeneratedAt, b.GeneratedAt) }).GeneratedAt
	r.Run = &RunInfo{Mode: first.Run.Mode, Jobs: len(recs), TotalJobs: len(recs)}
	return r, nil
}

// checkShardCalls checks that the shards' call records are the matrix's
// jobs, each once and in the shard that runs it: shards come from other CI
// jobs, and a moved, copied or dropped record would change the verdict.
func checkShardCalls(v *Validation, shards []*Report, n, ncand int) error {
	nex := len(v.Dataset.Examples)
	repeat := v.Dataset.repeat()
	exIdx := make(map[string]int, nex)
	for i, ex := range v.Dataset.Examples {
		exIdx[ex.Name] = i
	}
	total := matrixJobs(ncand, nex, repeat)
	seen := make(map[int]string, min(total, callsIn(shards)))
	for _, s := range shards {
		var si int
		fmt.Sscanf(s.Run.Shard, "%d/", &si)
		for k, r := range s.Calls {
			where := fmt.Sprintf("eval merge: %s: calls[%d]", s.Path, k)
			ei, ok := exIdx[r.Example]
			switch {
			case r.Candidate < 0 || r.Candidate >= ncand:
				return fmt.Errorf("%s names candidate %d, the matrix has %d; re-run that shard", where, r.Candidate, ncand)
			case !ok:
				return fmt.Errorf("%s names example %q, which the dataset does not hold; re-run that shard", where, r.Example)
			case r.Repeat < 0 || r.Repeat >= repeat:
				return fmt.Errorf("%s names repeat %d, the matrix repeats %d time(s); re-run that shard", where, r.Repeat, repeat)
			}
			idx := jobIndex(r.Candidate, ei, r.Repeat, nex, repeat)
			if owner := shardOf(idx, n); owner != si {
				return fmt.Errorf("%s (candidate %d, example %q, repeat %d) is not shard %d's call: shard %d/%d runs it; re-run that shard", where, r.Candidate, r.Example, r.Repeat, si, owner, n)
			}
			if prev, dup := seen[idx]; dup {
				return fmt.Errorf("%s (candidate %d, example %q, repeat %d) is recorded twice (also in %s); re-run that shard", where, r.Candidate, r.Example, r.Repeat, prev)
			}
			seen[idx] = s.Path
		}
	}
	if len(seen) != total {
		return fmt.Errorf("eval merge: the shards hold %d calls, the matrix has %d; re-run the shards that were cut short", len(seen), total)
	}
	return nil
}

// maxListedShards bounds the missing shards an error lists.
const maxListedShards = 10

// matrixJobs is candidates × examples × repeats, saturated at the largest
// int rather than wrapping.
func matrixJobs(ncand, nex, repeat int) int {
	total := 1
	for _, k := range []int{ncand, nex, repeat} {
		if k <= 0 {
			return 0
		}
		if total > math.MaxInt/k {
			return math.MaxInt
		}
		total *= k
	}
	return total
}

// callsIn is the call records the shards hold together.
func callsIn(shards []*Report) int {
	n := 0
	for _, s := range shards {
		n += len(s.Calls)
	}
	return n
}

// checkShardCandidates checks that the shards' candidates are the
// dataset's matrix, in its order (records name candidates by index).
func checkShardCandidates(v *Validation, first *Report) error {
	if v.Story == nil {
		return nil
	}
	specs, err := expandMatrix(v.Dataset, v.Story, v.CallSite, first.Run.Mode == "cassette")
	if err != nil {
		return fmt.Errorf("eval merge: %w", err)
	}
	if !slices.EqualFunc(specs, first.Candidates, func(sp CandidateSpec, c Candidate) bool {
		return candidateKey(sp.Profile, sp.Model, sp.Effort) == c.Key()
	}) {
		want, got := make([]string, len(specs)), make([]string, len(first.Candidates))
		for i, sp := range specs {
			want[i] = candidateLabel(sp.Profile, sp.Model, sp.Effort)
		}
		for i, c := range first.Candidates {
			got[i] = c.Label()
		}
		return fmt.Errorf("eval merge: %s measures candidates %q, the dataset's matrix measures %q; re-run the shards with this dataset", first.Path, got, want)
	}
	return nil
}

// CheckShardSize refuses a shard holding more call records than the
// matrix has jobs as soon as it is read, so eval merge never holds several
// oversized shards (empty records parse to many times their size).
func CheckShardSize(v *Validation, s *Report) error {
	if v.Story == nil {
		return nil
	}
	specs, err := expandMatrix(v.Dataset, v.Story, v.CallSite, true)
	if err != nil {
		return fmt.Errorf("eval merge: %w", err)
	}
	total := matrixJobs(len(specs), len(v.Dataset.Examples), v.Dataset.repeat())
	if len(s.Calls) > total {
		return fmt.Errorf("eval merge: %s holds %d calls, the matrix has %d jobs in all; re-run that shard", s.Path, len(s.Calls), total)
	}
	return nil
}
