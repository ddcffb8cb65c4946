package validate

import (
	"bytes"
	"maps"
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
	// ProfilePath is the operator plugin profile (--profile).
	ProfilePath string
	// Strict also reports `# kitsoki:ignore` comments that suppress
	// nothing.
	Strict bool
	// Stdin, when set, is the manifest's bytes for the single file Run is
	// given (`kitsoki validate -`).
	Stdin []byte
	// Flows also lints the flow fixtures beside each story whose check
	// found no error.
	Flows bool
	// KeepStories hands back each file's loaded model in Result.Stories.
	KeepStories bool
	// MaxRepeats is the fold's limit on what an import tree repeats
	// (fold.Options.MaxRepeats); 0 means fold.MaxRepeats, the limit run
	// and test fold with, so validate reports what they refuse.
	MaxRepeats int
}

// Result of validating a set of stories.
type Result struct {
	Files       []string          // the app.yaml files checked, sorted
	Diagnostics []diag.Diagnostic // sorted by file, line, column
	Invalid     map[string]bool   // the files with at least one error
	// Stories, with Options.KeepStories, maps each file to the model its
	// load returned (lint.Load).
	Stories map[string]*story.Story
	// Source gives the bytes of a file a diagnostic names, for snippets:
	// those the load kept, else a read through the project root the load
	// read through (diag.RootSource), never a read by path.
	Source func(file string) ([]byte, bool)
}

// Rules lists every rule a validate run can report: the one list
// --list-rules, SARIF and docs/checks.md show.
func Rules() []story.Rule {
	return slices.Concat(lint.Rules(), plugin.Rules(), eval.Rules(), mcpserve.Rules(), flowtest.Rules())
}

// summaries maps every rule id of Rules to its one-line summary.
func summaries() map[string]string {
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
	kept, roots := sourcesOf(per)
	if opts.Stdin != nil && len(files) == 1 {
		if _, ok := kept[files[0]]; !ok || kept[files[0]] == nil {
			kept[files[0]] = opts.Stdin
		}
	}
	res := Result{Files: files, Diagnostics: applyIgnores(files, dropFoldedTwice(per), kept, roots, opts.Strict), Invalid: map[string]bool{}}
	res.Source = diag.RootSource(func(f string) ([]byte, bool) {
		b := kept[f]
		return b, b != nil
	}, roots...)
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

// checked is what Run keeps of one file's check: the bytes of the files
// with an ignore marker only (nil for the others).
type checked struct {
	own   map[string]bool // the story's own files: its manifest and those it includes
	model *story.Story
	// roots are the project roots the load read through: the top story's
	// (found as the load finds it, even when the load failed) and those of
	// its children outside it. A file read again goes through them.
	roots   []*safefile.Root
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
	if st != nil {
		c.roots = storyRoots(st) // the top one first: the root the load read through
		c.own = make(map[string]bool, len(st.Manifests))
		for _, m := range st.Manifests {
			c.own[m] = true
		}
	} else {
		c.roots = []*safefile.Root{opts.Story.ManifestRoot(f)}
	}
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
	if st != nil && !diag.HasErrors(ds) {
		ds = append(ds, foldRepeats(st, opts.MaxRepeats)...)
	}
	sound := st != nil && !diag.HasErrors(ds)
	po := plugin.Options{StoryDir: filepath.Dir(f), ProfilePath: opts.ProfilePath}
	if sound {
		po.Story = st
	}
	ds = append(ds, plugin.ProfileDiagnostics(po)...)
	if sound {
		// the engine runs a story whatever its evidence says: warnings
		// here, `kitsoki eval check` is the gate
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

// sourcesOf merges what the checks kept of their files' bytes (nil for a
// file the load read without an ignore marker) and their roots, each
// directory once.
func sourcesOf(per []checked) (map[string][]byte, []*safefile.Root) {
	kept := map[string][]byte{}
	var roots []*safefile.Root
	seen := map[string]bool{}
	for _, c := range per {
		maps.Copy(kept, c.sources)
		for _, r := range c.roots {
			if !seen[r.Dir()] {
				seen[r.Dir()] = true
				roots = append(roots, r)
			}
		}
	}
	return kept, roots
}

// applyIgnores drops the story findings a '# kitsoki:ignore' comment
// silences, adds those about unknown rules (and, strict, comments that
// silence nothing), and sorts them. The markers are those of the bytes
// the load read (kept); a file it did not keep (a manifest that did not
// parse, a file a warning names beside the story's YAML) is read through
// roots, never again by its path.
func applyIgnores(files []string, per []checked, kept map[string][]byte, roots []*safefile.Root, strict bool) []diag.Diagnostic {
	var all []diag.Diagnostic
	yamlFiles := slices.Collect(maps.Keys(kept))
	for i, c := range per {
		all = append(all, c.diags...)
		if len(c.sources) == 0 {
			yamlFiles = append(yamlFiles, files[i])
		}
	}
	slices.Sort(yamlFiles)
	known := summaries()
	read := diag.RootSource(nil, roots...)
	src := func(f string) ([]byte, bool) { // a file without the marker is not scanned
		if b, ok := kept[f]; ok {
			return b, b != nil
		}
		b, ok := read(f)
		return b, ok && bytes.Contains(b, ignoreMarker)
	}
	ignoreID := lint.IgnoreRule().ID
	ig := diag.ApplyIgnores(all, yamlFiles, src, func(id string) bool { _, ok := known[id]; return ok }, ignoreID)
	all = append(ig.Kept, ig.Unknown...)
	if strict {
		all = append(all, ig.Unused...)
	}
	return diag.Sort(all)
}
