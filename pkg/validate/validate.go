package validate

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/eval"
	"kitsoki/pkg/mcpserve"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/story"
)

// Options for a validation run.
type Options struct {
	Story story.Options
	// Jobs bounds parallel loads; 0 means GOMAXPROCS.
	Jobs int
	// ProfilePath is the operator plugin profile (--profile); "" searches
	// .kitsoki/plugins.yaml upward from each story.
	ProfilePath string
}

// Result of validating a set of stories.
type Result struct {
	Files       []string          // the app.yaml files checked, sorted
	Diagnostics []diag.Diagnostic // sorted by file, line, column
	// Invalid lists the files with at least one error (or, with strict, any finding).
	Invalid map[string]bool
}

// Run loads every file in parallel and gathers their diagnostics.
func Run(files []string, opts Options) Result {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	per := make([][]diag.Diagnostic, len(files))
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, f := range files {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			st, ds := story.Load(f, opts.Story)
			sound := st != nil && !diag.HasErrors(ds)
			po := plugin.Options{StoryDir: filepath.Dir(f), ProfilePath: opts.ProfilePath}
			if sound {
				po.Story = st
			}
			ds = append(ds, plugin.ProfileDiagnostics(po)...)
			if sound {
				// Pinned selections are checked against their eval evidence
				// only once the story itself is sound. The engine runs a story
				// whatever its evidence says, so here they are warnings
				// (--strict fails on them); `kitsoki eval check` is the gate
				// that fails on stale or failing evidence.
				for _, d := range eval.CheckSelections(st) {
					d.Severity = diag.Warning
					ds = append(ds, d)
				}
				ds = append(ds, mcpserve.CheckToolNames(st)...)
			}
			per[i] = ds
		}()
	}
	wg.Wait()
	var all []diag.Diagnostic
	for _, ds := range per {
		all = append(all, ds...)
	}
	all = diag.FilterIgnored(all, readFile)
	all = diag.Sort(all)
	res := Result{Files: files, Diagnostics: all, Invalid: map[string]bool{}}
	for i, f := range files {
		for _, d := range per[i] {
			if d.Severity == diag.Error {
				res.Invalid[f] = true
			}
		}
	}
	return res
}

func readFile(f string) ([]byte, bool) {
	b, err := os.ReadFile(f)
	return b, err == nil
}
