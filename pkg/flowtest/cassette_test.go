package flowtest

import (
	"context"
	"path/filepath"
	"testing"
)

// Each fixture replays its own host_cassette: a fixture run many times in
// one run (-j 1 and -j 2) finds its play-once episode unplayed every time.
func TestRunnerCassettePerFixture(t *testing.T) {
	one := probeFixture(t, "probe5", "k1.yaml")
	many := &File{Story: one.Story}
	for range 4 {
		many.Fixtures = append(many.Fixtures, one)
	}
	for _, jobs := range []int{1, 2} {
		r := NewRunner(Options{Jobs: jobs})
		rs := r.Run(context.Background(), []*File{many})
		if len(rs) != 4 {
			t.Fatalf("-j %d: ran %d of 4", jobs, len(rs))
		}
		for i, res := range rs {
			if !res.Passed() {
				t.Fatalf("-j %d: run %d failed: %+v %+v", jobs, i, res.Fatal, res.Failures)
			}
		}
	}
}

// Fixtures naming one recording in one run each route their inputs
// through it.
func TestRunnerRecordingPerFixture(t *testing.T) {
	one := probeFixture(t, "probe3", "h01_hit.yaml")
	many := &File{Story: one.Story, Fixtures: []*Fixture{one, one, one}}
	r := NewRunner(Options{Jobs: 2})
	rs := r.Run(context.Background(), []*File{many})
	if len(rs) != 3 {
		t.Fatalf("ran %d of 3", len(rs))
	}
	for i, res := range rs {
		if !res.Passed() {
			t.Fatalf("run %d failed: %+v %+v", i, res.Fatal, res.Failures)
		}
	}
}

// probeFixture is the one fixture of testdata/upstream/<probe>/flows/<file>.
func probeFixture(t *testing.T, probe, file string) *Fixture {
	t.Helper()
	app := filepath.Join("testdata", "upstream", probe, "app.yaml")
	files, _, err := DiscoverUnder("", nil, []string{app}, filepath.Join(filepath.Dir(app), "flows", file), false, nil)
	if err != nil || len(files) != 1 || len(files[0].Fixtures) != 1 {
		t.Fatalf("discover %s/%s: %v, %d files", probe, file, err, len(files))
	}
	return files[0].Fixtures[0]
}
