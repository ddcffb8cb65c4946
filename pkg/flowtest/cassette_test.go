package flowtest

import (
	"context"
	"path/filepath"
	"testing"
)

// The runner parses a host_cassette once and each fixture replays its own
// fork: a fixture run many times in one run (-j 1 and -j 2) finds its
// play-once episode unplayed every time.
func TestRunnerCassetteForkPerFixture(t *testing.T) {
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
		if n := len(r.cassettes.m); n != 2 {
			t.Fatalf("-j %d: %d cassettes parsed, want 2 (host and agent views of one file)", jobs, n)
		}
	}
}

// A recording is parsed once per run and shared by the fixtures naming it;
// each still routes its inputs through it.
func TestRunnerRecordingParsedOnce(t *testing.T) {
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
	n := 0
	for k := range r.cassettes.m {
		if k.kind == "recording" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d recordings parsed, want 1", n)
	}
}

// probeFixture is the one fixture of testdata/upstream/<probe>/flows/<file>.
func probeFixture(t *testing.T, probe, file string) *Fixture {
	t.Helper()
	app := filepath.Join("testdata", "upstream", probe, "app.yaml")
	files, _, err := Discover([]string{app}, filepath.Join(filepath.Dir(app), "flows", file), false, nil)
	if err != nil || len(files) != 1 || len(files[0].Fixtures) != 1 {
		t.Fatalf("discover %s/%s: %v, %d files", probe, file, err, len(files))
	}
	return files[0].Fixtures[0]
}
