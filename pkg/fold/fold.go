package fold

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// Options tune New.
type Options struct {
	// Bindings rebinds top-level host interfaces (iface -> handler) after the
	// fold, as a fixture's host_bindings: does (lifted names accepted, a
	// name the folded story lacks ignored).
	Bindings map[string]string
	// Phases, when set, expands a story's phases: block in place on the fold's
	// private copy, for every story of the import tree, after its own imports
	// are folded (upstream's order). When nil, a child with phases: is a fold
	// error and the top story's phases: are left as they are.
	Phases func(st *story.Story) error
	// MaxRepeats is the most world resets and intent spellings the fold may
	// repeat before it refuses the import tree; 0 (or less) means
	// [MaxRepeats], the limit run, test and validate fold with. Tests set a small one to prove
	// the refusal without folding a million repeats.
	MaxRepeats int
	// MaxImportedStates is the most states the fold copies from imported
	// children; 0 (or less) means story.MaxFoldImportedStates, the limit
	// run, test and validate (pkg/lint's imports rule) hold.
	MaxImportedStates int
	// MaxOverrideNodes is the most YAML nodes the fold's parses of import
	// overrides visit together; 0 (or less) means yamlnode.MaxNodes, the
	// limit run, test and validate (pkg/lint's imports rule) hold.
	MaxOverrideNodes int
}

// ImportedStatesLimit is the imported states o folds at most:
// o.MaxImportedStates, or story.MaxFoldImportedStates.
func (o Options) ImportedStatesLimit() int {
	return cmp.Or(max(o.MaxImportedStates, 0), story.MaxFoldImportedStates)
}

// OverrideNodesLimit is the override nodes o parses at most:
// o.MaxOverrideNodes, or yamlnode.MaxNodes.
func (o Options) OverrideNodesLimit() int {
	return cmp.Or(max(o.MaxOverrideNodes, 0), yamlnode.MaxNodes)
}

// RepeatLimit is the limit o folds with: o.MaxRepeats, or [MaxRepeats].
func (o Options) RepeatLimit() int {
	if o.MaxRepeats > 0 {
		return o.MaxRepeats
	}
	return MaxRepeats
}

// Folded is a folded story with the facts the fold knows about each state
// and effect that pkg/story's model has no field for.
type Folded struct {
	// Story is the folded story: no imports, one state tree. Its own State
	// and Var indexes are not built: walk Story.AllStates (Info holds what
	// the fold recorded of each state) and read Story.World.
	Story *story.Story

	states  map[string]*StateInfo
	exits   map[any][]ExitUse
	aliases []AliasInfo
	repeats int // counted against Options.MaxRepeats (RepeatsAtMost's tests)
}

// ExitUse is an imports: exit mapping an @exit: target was rewritten through.
type ExitUse struct {
	Name string
	Pos  story.Pos
}

// ExitsVia lists the exit mappings the target of site (a folded arm or
// on_complete effect) went through, innermost first.
func (f *Folded) ExitsVia(site any) []ExitUse { return f.exits[site] }

// StateInfo is what the fold records about one folded state.
type StateInfo struct {
	Path string
	// Dir is the absolute directory of the story that declared the state.
	Dir string
	// File is the manifest of that story.
	File string
	// Story is that story as loaded (read-only).
	Story *story.Story
	// Alias is the dotted chain of import aliases the state lives under (""
	// for the top story's own); a wrapper's is its importer's chain.
	Alias string
	// Wrapper is set on the compound state synthesized for an alias.
	Wrapper bool
	// IntentAliases maps each spelling a caller may type to the arc name of
	// this state (upstream's State.IntentAliases).
	IntentAliases map[string]string
}

// AliasInfo describes one folded import (at any depth).
type AliasInfo struct {
	// Path is the wrapper state path ("sub", "fleet.ship").
	Path string
	// Alias is the import alias (the last segment of Path).
	Alias string
	// Source is the imports: source as written; File the child manifest.
	Source string
	File   string
	// Dir is the child story's directory.
	Dir string
	// Story is the child as loaded (the input, read-only).
	Story *story.Story
}

// New folds st; a story without imports folds to a copy of itself.
func New(st *story.Story, opts Options) (*Folded, error) {
	if st == nil {
		return nil, fmt.Errorf("fold: no story")
	}
	fs := &folder{
		opts:        opts,
		stateDir:    map[*story.State]origin{},
		aliases:     map[*story.State]map[string]string{},
		wrappers:    map[*story.State]*wrapInfo{},
		exitsVia:    map[any][]ExitUse{},
		overrides:   story.NewOverrideBudget(opts.OverrideNodesLimit()),
		scope:       map[*story.State]*node{},
		finalKeys:   map[*story.Effect]bool{},
		preOverride: map[*node]map[string]*story.Intent{},
	}
	root := fs.build(st, nil, nil, "", map[*story.Story]bool{st: true})
	if !fs.failed() {
		fs.fold(root)
		fs.tables(root)
		fs.rewrite(root)
	}
	if !fs.failed() {
		freeFormFallback(root.st) // adds no problem
		fs.bind(root.st, opts.Bindings)
	}
	if fs.failed() {
		return nil, &Error{Problems: fs.problems()}
	}
	return fs.result(root), nil
}

// Problem is one reason a story could not be folded.
type Problem struct {
	// Alias is the dotted import alias chain the problem is in.
	Alias string
	// Pos is where it was written (file, line, column).
	Pos     story.Pos
	Message string
	// OverRepeats marks the problem of an import tree that repeats more
	// than Options.MaxRepeats (RepeatsAtMost bounds it without a fold).
	OverRepeats bool
}

func (p Problem) String() string {
	where := p.Pos.File
	if p.Pos.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d", p.Pos.File, p.Pos.Line, p.Pos.Col)
	}
	if where == "" {
		where = "<story>"
	}
	return where + ": imports." + p.Alias + ": " + p.Message
}

// Error lists every problem of a fold.
type Error struct {
	Problems []Problem
}

func (e *Error) Error() string { return diag.Problems("imports cannot be folded", e.Problems) }

// Info returns what the fold recorded about the state at path, or nil.
func (f *Folded) Info(path string) *StateInfo { return f.states[normPath(path)] }

// UpstreamViewDir is the directory upstream renders a state's view
// against: its top-level alias's child directory, even for a grand-child
// (docs/compat/fold.md); a state's own directory is its Info's Dir.
func (f *Folded) UpstreamViewDir(path string) string {
	first, _, _ := strings.Cut(normPath(path), ".")
	for _, a := range f.aliases {
		if a.Path == first {
			return a.Dir
		}
	}
	return f.Story.Dir
}

// Aliases lists every folded import, outermost first, in import order.
func (f *Folded) Aliases() []AliasInfo { return append([]AliasInfo(nil), f.aliases...) }

// Paths lists every folded state path in depth-first declaration order.
func (f *Folded) Paths() []string {
	var out []string
	for _, s := range f.Story.AllStates() {
		out = append(out, s.Path)
	}
	return out
}

func normPath(p string) string {
	p, _, _ = strings.Cut(strings.ReplaceAll(p, "/", "."), "#")
	return p
}

func (fs *folder) result(root *node) *Folded {
	f := &Folded{
		Story:   root.st,
		states:  map[string]*StateInfo{},
		exits:   fs.exitsVia,
		repeats: fs.repeats,
	}
	for _, s := range root.st.AllStates() {
		o := fs.stateDir[s]
		si := &StateInfo{Path: s.Path, Dir: o.dir, File: o.file, Story: o.story, Alias: o.alias, IntentAliases: fs.aliases[s]}
		if si.Story == nil {
			si.Dir, si.File, si.Story = root.orig.Dir, root.orig.File, root.orig
		}
		if w := fs.wrappers[s]; w != nil {
			si.Wrapper = true
			f.aliases = append(f.aliases, AliasInfo{Path: s.Path, Alias: s.Name, Source: w.source, File: w.file, Dir: w.dir, Story: w.story})
		}
		f.states[s.Path] = si
	}
	slices.SortStableFunc(f.aliases, func(a, b AliasInfo) int {
		return cmp.Compare(strings.Count(a.Path, "."), strings.Count(b.Path, "."))
	})
	return f
}
