package eval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// Runs of one dataset stamped in one second each keep their report: the
// second is written as <timestamp>_2.json, never over the first, and
// latest.json and decision.evidence name the newer. Before, the second
// run's report replaced the first's.
func TestStampedReportsOfOneSecondAreKept(t *testing.T) {
	v, cas := cassetteFixture(t)
	dir := reportsDir(v.Dataset)
	var written [][]string
	for range 3 {
		rep, err := Run(context.Background(), v, RunOptions{Cassette: cas, Now: fixedNow})
		if err != nil {
			t.Fatal(err)
		}
		paths, err := WriteRunReport(rep, v.Story.Dir, DefaultReportPaths(v.Dataset, rep, fixedNow()))
		if err != nil {
			t.Fatal(err)
		}
		written = append(written, paths)
	}
	stamp := filepath.Join(dir, "20260622T000000Z")
	for i, want := range []string{stamp + ".json", stamp + "_2.json", stamp + "_3.json"} {
		if !slices.Equal(written[i], []string{want, filepath.Join(dir, "latest.json")}) {
			t.Errorf("run %d wrote %v, want %s and latest.json", i+1, written[i], filepath.Base(want))
		}
		r, err := LoadReport(want)
		if err != nil {
			t.Fatalf("run %d's report: %v", i+1, err)
		}
		if r.Decision.Evidence != "evals/reports/merge_judge/latest.json" {
			t.Errorf("run %d's evidence %q", i+1, r.Decision.Evidence)
		}
	}
	// latest.json gone, the newest of the second is the greatest _<n>.
	if err := os.Remove(filepath.Join(dir, "latest.json")); err != nil {
		t.Fatal(err)
	}
	if r, err := latestReport(v.Dataset); err != nil || r == nil || filepath.Base(r.Path) != "20260622T000000Z_3.json" {
		t.Errorf("latest report without latest.json: %v (%v), want 20260622T000000Z_3.json", r, err)
	}
}

// Runs ending at once in one second each write a file of their own.
func TestStampedReportsAtOnceAreKept(t *testing.T) {
	v, cas := cassetteFixture(t)
	rep, err := Run(context.Background(), v, RunOptions{Cassette: cas, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	const runs = 6
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make([]error, runs)
	b, err := rep.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for i := range runs {
		r, err := parseReport("r", b) // each run's own report, as each process has
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			<-start
			_, errs[i] = WriteRunReport(r, v.Story.Dir, ReportDest{Paths: DefaultReportPaths(v.Dataset, r, fixedNow()).Paths[:1], Stamped: true})
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	m, _ := filepath.Glob(filepath.Join(reportsDir(v.Dataset), "20260622T000000Z*.json"))
	if len(m) != runs {
		t.Errorf("%d reports for %d runs: %v", len(m), runs, m)
	}
}

func TestStampSeq(t *testing.T) {
	for name, want := range map[string]int{
		"20260622T000000Z.json":    1,
		"20260622T000000Z_2.json":  2,
		"20260622T000000Z_12.json": 12,
		"latest.json":              1,
		"my_run_3.json":            1,
		"20260622T000000Z_1.json":  1,
		"20260622T000000Z_x.json":  1,
	} {
		if got := stampSeq(filepath.Join("r", name)); got != want {
			t.Errorf("stampSeq(%s) = %d, want %d", name, got, want)
		}
	}
}
