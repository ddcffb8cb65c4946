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
	per := make([]checked, len(files))
	var g errgroup.Group
	g.SetLimit(jobs)
	for i, f := range files {
		g.Go(func() error {
			per[i] = checkFile(f, opts, opts.Stdin != nil && len(files) == 1)
			return nil
		})
	}
	g.Wait()
	res := Result{Files: files, Diagnostics: applyIgnores(files, per, opts.Strict), Invalid: map[string]bool{}}
	if opts.KeepStories {
		res.Stories = make(map[string]*story.Story, len(files))
	}
	for i, f := range files {
		if res.Stories != nil {
			res.Stories[f] = per[i].model
		}
		if diag.HasErrors(per[i].diags) || diag.HasErrors(per[i].flows) {
			res.Invalid[f] = true
		}
	}
	if opts.Flows {
		for _, c := range per {
			res.Diagnostics = append(res.Diagnostics, c.flows...)
		}
		res.Diagnostics = diag.Sort(res.Diagnostics)
	}
	return res
}

// checked is what Run keeps of one file's check. Only the bytes of the
// files with an ignore comment outlive a load (sources: nil for the
// others, read with no marker); the model is dropped unless KeepStories.
type checked struct {
	model   *story.Story
	diags   []diag.Diagnostic
	flows   []diag.Diagnostic // fixture findings, kept apart from the ignore pass
	sources map[string][]byte
}

// checkFile loads and checks one story (from opts.Stdin when stdin).
func checkFile(f string, opts Options, stdin bool) checked {
	var st *story.Story
	var ds []diag.Diagnostic
	if stdin {
		st, ds = lint.LoadSource(f, opts.Stdin, opts.Story)
	} else {
		st, ds = lint.Load(f, opts.Story)
	}
	var c checked
	if opts.KeepStories {
		c.model = st
	}
	yfs := st.Files()
	c.sources = make(map[string][]byte, len(yfs))
	for _, yf := range yfs {
		b, _ := st.Source(yf)
		if !bytes.Contains(b, ignoreMarker) {
			b = nil // a file without the marker has no markers: not scanned again
		}
		c.sources[yf] = b
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
	c.diags = ds
	if opts.Flows && sound && !diag.HasErrors(ds) {
		c.flows = lintFlows(f, st)
	}
	return c
}

// applyIgnores drops the story findings a '# kitsoki:ignore' comment
// silences, adds those about unknown rules (and, strict, comments that
// silence nothing), and sorts them.
func applyIgnores(files []string, per []checked, strict bool) []diag.Diagnostic {
	var all []diag.Diagnostic
	var yamlFiles []string
	merged := map[string][]byte{}
	for i, c := range per {
		all = append(all, c.diags...)
		for f, b := range c.sources {
			merged[f] = b
			yamlFiles = append(yamlFiles, f)
		}
		if len(c.sources) == 0 {
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
	if strict {
		all = append(all, ig.Unused...)
	}
	return diag.Sort(all)
}
