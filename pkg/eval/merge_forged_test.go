package eval

import (
	"context"
	"math"
	"runtime"
	"strings"
	"testing"
)

// TestMergeRefusesForgedRecords: eval merge reads shard reports another
// CI job wrote, so it checks that their call records are the matrix's
// jobs, each once and in the shard that runs it. Each forgery below kept
// the shards' call count (the only check before) and changed the
// verdict or hid a failing call.
func TestMergeRefusesForgedRecords(t *testing.T) {
	v, cas := cassetteFixture(t)
	shard := func(i int) *Report {
		r, err := Run(context.Background(), v, RunOptions{Cassette: cas, Now: fixedNow, Shard: i, Shards: 3})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := r.Marshal()
		if r, err = parseReport("shard", b); err != nil {
			t.Fatal(err)
		}
		r.Path = "shard-" + string(rune('0'+i)) + ".json"
		return r
	}
	good := []*Report{shard(1), shard(2), shard(3)}
	if _, err := Merge(v, good); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, want string
		forge      func(s []*Report)
	}{
		{"record moved to a candidate the matrix lacks", "candidate 99", func(s []*Report) { s[0].Calls[0].Candidate = 99 }},
		{"record for an example the dataset lacks", `example "ghost"`, func(s []*Report) { s[0].Calls[0].Example = "ghost" }},
		{"record for a repeat the matrix lacks", "repeat 7", func(s []*Report) { s[0].Calls[0].Repeat = 7 }},
		{"record copied over another of the same shard", "twice", func(s []*Report) { s[0].Calls[1] = s[0].Calls[0] }},
		{"record from another shard", "shard 2/3 runs it", func(s []*Report) { s[0].Calls[0] = s[1].Calls[0] }},
		{"a candidate the matrix lacks, named alike in every shard", "the dataset's matrix measures", func(s []*Report) {
			for _, r := range s {
				r.Candidates[0].Model = "forged-model"
			}
		}},
		{"calls dropped and the total zeroed", "the matrix has 36", func(s []*Report) {
			for _, r := range s {
				r.Run.TotalJobs = 0
			}
			s[2].Calls = s[2].Calls[:1]
		}},
	}
	// A shard from another dataset names it once, whichever of its two
	// dataset hashes tells.
	other := []*Report{shard(1), shard(2), shard(3)}
	other[1].Dataset, other[1].Hashes.Dataset = "other", "other"
	if _, err := Merge(v, other); err == nil || !strings.Contains(err.Error(), "([dataset] changed)") {
		t.Errorf("a shard of another dataset: merge gave %v, want it to name the dataset once", err)
	}
	for _, c := range cases {
		s := []*Report{shard(1), shard(2), shard(3)}
		c.forge(s)
		_, err := Merge(v, s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: merge gave %v, want an error naming %q", c.name, err, c.want)
		}
	}
}

// TestCheckShardSize: a shard holding more call records than the matrix
// has jobs is refused as soon as it is read.
func TestCheckShardSize(t *testing.T) {
	v, _ := cassetteFixture(t)
	s := &Report{Path: "big.json", Calls: make([]CallRecord, 37)}
	if err := CheckShardSize(v, s); err == nil || !strings.Contains(err.Error(), "big.json holds 37 calls, the matrix has 36 jobs") {
		t.Errorf("CheckShardSize: %v", err)
	}
	s.Calls = s.Calls[:36]
	if err := CheckShardSize(v, s); err != nil {
		t.Errorf("a shard of the whole matrix: %v", err)
	}
}

// TestMergeBoundedByTheShardsGiven: a shard's "i/n" and the dataset's
// repeat are other jobs' and the repository's word; eval merge's work and
// memory follow the shards it is given, not those numbers (before, a
// shard saying 1/9223372036854775807 listed every missing shard in a
// slice until memory ran out, and a matrix of 2^26 jobs presized a map of
// 3.5 GB; a repeat whose product wrapped made CheckShardSize refuse every
// shard of a matrix of "-N jobs").
func TestMergeBoundedByTheShardsGiven(t *testing.T) {
	v, cas := cassetteFixture(t)
	r, err := Run(context.Background(), v, RunOptions{Cassette: cas, Now: fixedNow, Shard: 1, Shards: 3})
	if err != nil {
		t.Fatal(err)
	}
	r.Path = "shard-1.json"
	r.Run.Shard = "1/9223372036854775807"
	_, err = Merge(v, []*Report{r})
	if err == nil || !strings.Contains(err.Error(), "missing shard(s) [2 3 4 5 6 7 8 9 10 11] and 9223372036854775796 more of 9223372036854775807") {
		t.Errorf("a shard of 9223372036854775807: %v", err)
	}

	r.Run.Shard = "1/3"
	v.Dataset.Matrix.Repeat = 1 << 26
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err = checkShardCalls(v, []*Report{r}, 3, len(r.Candidates))
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Error("a shard of a 2^26-repeat matrix: no error")
	}
	if spent := after.TotalAlloc - before.TotalAlloc; spent > 1<<20 {
		t.Errorf("checking a shard of %d calls against a 2^26-repeat matrix allocated %d bytes", len(r.Calls), spent)
	}

	v.Dataset.Matrix.Repeat = math.MaxInt / 2
	if err := CheckShardSize(v, r); err != nil {
		t.Errorf("a matrix whose job count passes the int range: %v", err)
	}
}
