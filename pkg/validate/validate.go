package validate

import (
	"bytes"
	"path/filepath"
	"runtime"
	"slices"

	"golang.org/x/sync/errgroup"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/eval"
	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/mcpserve"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/story"
)

var ignoreMarker = []byte(diag.IgnoreMarker)

// Options for a validation run.
type Options struct {
	Story story.Options
	// Jobs bounds parallel loads; 0 means GOMAXPROCS.
	Jobs int
	// ProfilePath is the operator plugin profile (--profile), checked
	// with the layers under it (.kitsoki/plugins.yaml upward from each
	// story, the user's profile).
	ProfilePath string
	// Strict also reports `# kitsoki:ignore` comments that suppress
	// nothing (the caller fails on warnings).
	Strict bool
	// Stdin, when set, is the manifest's bytes for the single file Run is
	// given (`kitsoki validate -`): includes, imports and relative files
	// resolve beside that file.
	Stdin []byte
	// Flows also lints the flow fixtures beside each story whose check
	// found no error (<story dir>/flows/*.yaml, as `kitsoki validate`
	// does), against the story already loaded.
	Flows bool
	// KeepStories hands back each file's loaded model in Result.Stories
	// (kitsoki lsp navigates with the model it checked instead of loading
	// the story a second time); otherwise a model is dropped once its
	// story is checked.
	KeepStories bool
}

// Result of validating a set of stories.
type Result struct {
	Files       []string          // the app.yaml files checked, sorted
	Diagnostics []diag.Diagnostic // sorted by file, line, column
	// Invalid lists the files with at least one error.
	Invalid map[string]bool
	// Stories, with Options.KeepStories, maps each file Run was given to
	// the model its load returned (nil: the story did not load, or its
	// check failed inside: lint.Load); nil otherwise.
	Stories map[string]*story.Story
}

// Rules lists every rule a validate run can report: the story rules, then
// those of the checks validate adds (plugin profile, eval evidence, MCP
// tool names) and of the flow fixtures it lints beside each story. Each
// package declares its own rules (diag.Rule values); this is the one list
// --list-rules, SARIF and docs/checks.md show.
func Rules() []story.Rule {
	return slices.Concat(lint.Rules(), plugin.Rules(), eval.Rules(), mcpserve.Rules(), flowtest.Rules())
}

// Summaries maps every rule id of Rules to its one-line summary.
func Summaries() map[string]string {
	out := map[string]string{}
	for _, r := range Rules() {
		out[r.ID] = r.Summary
	}
	return out
}

// Run loads every file in parallel, on at most Jobs goroutines, and
// gathers their diagnostics.
func Run(files []string, opts Options) Result {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	sopts := opts.Story
	per := make([][]diag.Diagnostic, len(files))
	flows := make([][]diag.Diagnostic, len(files)) // fixture findings, kept apart from the ignore pass
	// Only the bytes of the files with an ignore comment outlive a load
	// (nil for the others: read, no marker); the models are dropped as
	// soon as each story is checked.
	sources := make([]map[string][]byte, len(files))
	var models []*story.Story
	if opts.KeepStories {
		models = make([]*story.Story, len(files))
	}
	check := func(i int, f string) {
		var st *story.Story
		var ds []diag.Diagnostic
		if opts.Stdin != nil && len(files) == 1 {
			st, ds = lint.LoadSource(f, opts.Stdin, sopts)
		} else {
			st, ds = lint.Load(f, sopts)
		}
		if models != nil {
			models[i] = st
		}
		yfs := st.Files()
		sources[i] = make(map[string][]byte, len(yfs))
		for _, yf := range yfs {
			b, _ := st.Source(yf)
			if !bytes.Contains(b, ignoreMarker) {
				b = nil // a file without the marker has no markers: not scanned again
			}
			sources[i][yf] = b
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
		if opts.Flows && sound && !diag.HasErrors(ds) {
			flows[i] = lintFlows(f, st)
		}
	}
	var g errgroup.Group
	g.SetLimit(jobs)
	for i, f := range files {
		g.Go(func() error {
			check(i, f)
			return nil
		})
	}
	g.Wait()
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
		b, ok := merged[f]
		if ok {
			return b, b != nil // nil: no marker
		}
		b, err := safefile.ReadFile(f, safefile.StoryYAML)
		// A file without the marker has no markers: skip scanning it.
		return b, err == nil && bytes.Contains(b, ignoreMarker)
	}
	ignoreID := lint.IgnoreRule().ID
	ig := diag.ApplyIgnores(all, yamlFiles, src, func(id string) bool { _, ok := known[id]; return ok }, ignoreID)
	all = append(ig.Kept, ig.Unknown...)
	if opts.Strict {
		all = append(all, ig.Unused...)
	}
	all = diag.Sort(all)
	res := Result{Files: files, Diagnostics: all, Invalid: map[string]bool{}}
	if models != nil {
		res.Stories = make(map[string]*story.Story, len(files))
		for i, f := range files {
			res.Stories[f] = models[i]
		}
	}
	for i, f := range files {
		if diag.HasErrors(per[i]) || diag.HasErrors(flows[i]) {
			res.Invalid[f] = true
		}
	}
	if opts.Flows {
		for _, fds := range flows {
			res.Diagnostics = append(res.Diagnostics, fds...)
		}
		res.Diagnostics = diag.Sort(res.Diagnostics)
	}
	return res
}
