package validate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"

	"kitsoki/internal/testing/storytest"
)

// sharedCorpus is the upstream corpus of 21 stories (outside the module;
// "" and the benchmarks skip when it is absent).
var sharedCorpus = storytest.CorpusDir()

// corpusTimes copies the shared corpus n times into a temporary directory
// and returns its app.yaml files (21 × 4 = 84, about the 85 stories of the
// issue's measurement).
func corpusTimes(b *testing.B, n int) []string {
	b.Helper()
	storytest.Shared(b, "corpus")
	dir := b.TempDir()
	for i := 0; i < n; i++ {
		dst := filepath.Join(dir, "copy"+strconv.Itoa(i))
		if err := os.CopyFS(dst, os.DirFS(sharedCorpus)); err != nil {
			b.Fatal(err)
		}
	}
	files, err := Expand([]string{dir + "/..."}, nil)
	if err != nil {
		b.Fatal(err)
	}
	return files
}

// BenchmarkCorpusOneProcess validates the corpus copied N times (x4: 88
// stories, about the 85 of issue 15's measurement) in one call, as
// `kitsoki validate stories/...` does: loads in parallel,
// flow fixtures linted. cpu-ns/story is the process CPU time (user+system,
// all threads, the collector's included) per story checked: the figure
// issue 15 sets its goal on. x1 shows the cost of stories that share no
// file.
func BenchmarkCorpusOneProcess(b *testing.B) {
	for _, n := range []int{1, 4} {
		b.Run("x"+strconv.Itoa(n), func(b *testing.B) {
			files := corpusTimes(b, n)
			b.ReportAllocs()
			var cpu int64
			for b.Loop() {
				start := processCPU()
				Run(files, Options{Story: story.Options{AllowUnsetEnv: true}, Flows: true})
				cpu += processCPU() - start
			}
			b.ReportMetric(float64(len(files)), "stories")
			if cpu > 0 {
				b.ReportMetric(float64(cpu)/float64(b.N)/float64(len(files)), "cpu-ns/story")
				b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			}
		})
	}
	// x4-expand is x4 as the command runs it: the stories found below
	// the corpus (Expand), then checked.
	b.Run("x4-expand", func(b *testing.B) {
		files := corpusTimes(b, 4)
		root := filepath.Dir(filepath.Dir(filepath.Dir(files[0]))) + "/..."
		b.ReportAllocs()
		var cpu int64
		for b.Loop() {
			start := processCPU()
			found, err := Expand([]string{root}, nil)
			if err != nil || len(found) != len(files) {
				b.Fatalf("found %d stories, %v; want %d", len(found), err, len(files))
			}
			Run(found, Options{Story: story.Options{AllowUnsetEnv: true}, Flows: true})
			cpu += processCPU() - start
		}
		b.ReportMetric(float64(len(files)), "stories")
		if cpu > 0 {
			b.ReportMetric(float64(cpu)/float64(b.N)/float64(len(files)), "cpu-ns/story")
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		}
	})
}

// BenchmarkCorpusPerStoryNoCache loads the same stories one by one: the
// shape of running a
// validator once per story, without the process start.
func BenchmarkCorpusPerStoryNoCache(b *testing.B) {
	files := corpusTimes(b, 4)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			lint.Load(f, story.Options{AllowUnsetEnv: true})
		}
	}
	b.ReportMetric(float64(len(files)), "stories")
}

// buildKitsoki builds the kitsoki binary into a temporary directory.
func buildKitsoki(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "kitsoki")
	build := exec.Command("go", "build", "-o", bin, "kitsoki")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkStartup runs the built binary's `version` command: the process
// start-up every command pays (package initialisation included). cpu-ns/op
// and minflt/op are the child's, as in BenchmarkCorpusProcess: on a busy
// machine they move far less than the wall time.
func BenchmarkStartup(b *testing.B) {
	bin := buildKitsoki(b)
	var use usage
	for b.Loop() {
		cmd := exec.Command(bin, "version")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		use.add(cmd.ProcessState)
	}
	use.report(b)
}

// BenchmarkCorpusProcess runs the built binary's `validate DIR/...` on the
// corpus copied N times, a fresh process each time, as a user runs it:
// start-up, and the fresh memory the process touches, included, which
// the in-process BenchmarkCorpusOneProcess reuses from one iteration to
// the next (so it cannot weigh the collector's settings). cpu-ns/op is
// the child's user+system CPU time, minflt/op its page faults (each
// page of heap touched for the first time is one), maxrss-MiB its peak
// resident memory.
func BenchmarkCorpusProcess(b *testing.B) {
	bin := buildKitsoki(b)
	for _, n := range []int{1, 4} {
		b.Run("x"+strconv.Itoa(n), func(b *testing.B) {
			files := corpusTimes(b, n)
			root := filepath.Dir(filepath.Dir(filepath.Dir(files[0])))
			var use usage
			for b.Loop() {
				cmd := exec.Command(bin, "validate", root+"/...")
				cmd.Env = append(os.Environ(), "NO_COLOR=1")
				out, err := cmd.CombinedOutput()
				if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() > 1) {
					b.Fatalf("kitsoki validate: %v\n%s", err, out)
				}
				use.add(cmd.ProcessState)
			}
			b.ReportMetric(float64(len(files)), "stories")
			use.report(b)
		})
	}
}
