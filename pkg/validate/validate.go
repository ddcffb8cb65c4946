package validate

import (
	"kitsoki/pkg/flowtest"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"kitsoki/internal/safefile"
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
	// Strict also reports `# kitsoki:ignore` comments that suppress
	// nothing (the caller fails on warnings).
	Strict bool
	// Stdin, when set, is the manifest's bytes for the single file Run is
	// given (`kitsoki validate -`): includes, imports and relative files
	// resolve beside that file.
	Stdin []byte
}

// Result of validating a set of stories.
type Result struct {
	Files       []string          // the app.yaml files checked, sorted
	Diagnostics []diag.Diagnostic // sorted by file, line, column
	// Invalid lists the files with at least one error.
	Invalid map[string]bool
}

// Rules lists every rule a validate run can report: the story rules and
// the profile and selection-evidence checks validate adds.
func Rules() []story.Rule {
	rules := story.Rules()
	rules = append(rules,
		story.Rule{ID: plugin.RuleProfile, Severity: diag.Error, LintOnly: true,
			Summary: "the operator plugin profile (.kitsoki/plugins.yaml): known keys, disabled ids, redact and budget config",
			Example: "disable: [transport.nope]"},
		story.Rule{ID: eval.RuleSelection, Severity: diag.Warning, LintOnly: true,
			Summary: "a pinned selection's eval evidence is missing, stale or failing (kitsoki eval check is the gate)",
			Example: "selection: {profile: fast, evidence: evals/reports/old.json}"},
		story.Rule{ID: "eval", Severity: diag.Error, LintOnly: true,
			Summary: "an eval dataset or report a selection names cannot be read",
			Example: "evals/merge_judge.yaml: examples: at least one example is required"},
	)
	for _, r := range flowtest.Rules() { // fixture lint (kitsoki validate lints flows/ beside each story)
		rules = append(rules, story.Rule{ID: r.ID, Severity: r.Severity, LintOnly: true, Summary: r.Summary, Example: r.Example})
	}
	return rules
}

// Summaries maps every rule id of Rules to its one-line summary.
func Summaries() map[string]string {
	out := map[string]string{}
	for _, r := range Rules() {
		out[r.ID] = r.Summary
	}
	return out
}

// Run loads every file in parallel (sharing one parse cache, so a file
// imported by many stories is parsed once) and gathers their diagnostics.
func Run(files []string, opts Options) Result {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	sopts := opts.Story
	if sopts.Cache == nil {
		sopts.Cache = story.NewCache()
	}
	per := make([][]diag.Diagnostic, len(files))
	// Only the files' bytes outlive a load (for ignore comments); the
	// models are dropped as soon as each story is checked.
	sources := make([]map[string][]byte, len(files))
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, f := range files {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			var st *story.Story
			var ds []diag.Diagnostic
			if opts.Stdin != nil && len(files) == 1 {
				st, ds = story.LoadSource(f, opts.Stdin, sopts)
			} else {
				st, ds = story.Load(f, sopts)
			}
			sources[i] = map[string][]byte{}
			for _, yf := range st.Files() {
				sources[i][yf], _ = st.Source(yf)
			}
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
	var yamlFiles []string
	merged := map[string][]byte{}
	for i, ds := range per {
		all = append(all, ds...)
		for f, b := range sources[i] {
			merged[f] = b
			yamlFiles = append(yamlFiles, f)
		}
		if len(sources[i]) == 0 {
			yamlFiles = append(yamlFiles, files[i])
		}
	}
	slices.Sort(yamlFiles)
	known := Summaries()
	src := func(f string) ([]byte, bool) {
		if b, ok := merged[f]; ok {
			return b, true
		}
		b, err := safefile.ReadFile(f, safefile.StoryYAML)
		return b, err == nil
	}
	ignoreID := story.IgnoreRule().ID
	ig := diag.ApplyIgnores(all, yamlFiles, src, func(id string) bool { _, ok := known[id]; return ok }, ignoreID)
	all = append(ig.Kept, ig.Unknown...)
	if opts.Strict {
		all = append(all, ig.Unused...)
	}
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
