package lint

import (
	"errors"
	"os"
	"path/filepath"

	"kitsoki/internal/panicked"
	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// Load loads the story at path and checks it, returning every diagnostic
// sorted; the story is nil when nothing usable could be parsed.
func Load(path string, opts story.Options) (*story.Story, []diag.Diagnostic) {
	st, ds := story.Load(path, opts)
	return checked(st, ds, opts)
}

// LoadSource is story.LoadSource followed by Check.
func LoadSource(path string, data []byte, opts story.Options) (*story.Story, []diag.Diagnostic) {
	st, ds := story.LoadSource(path, data, opts)
	return checked(st, ds, opts)
}

// LoadRunnable is Load for a command that runs the story and prints none
// of its lint findings (kitsoki test): the passes of LintOnly rules are
// skipped, but for the schema pass (its compiles spend the story's regexp
// budget, which the run spends too). Those passes report only findings of
// LintOnly rules, which never refuse a run ([Blocking]), so the story and
// its blocking errors are Load's; the findings of the other passes are
// kept. A LintOnly pass that would panic does not refuse the story here.
func LoadRunnable(path string, opts story.Options) (*story.Story, []diag.Diagnostic) {
	st, ds := story.Load(path, opts)
	return checkedWith(st, ds, opts, true)
}

func checked(st *story.Story, ds []diag.Diagnostic, opts story.Options) (*story.Story, []diag.Diagnostic) {
	return checkedWith(st, ds, opts, false)
}

// checkedWith is checked, skipping the LintOnly passes when runnable.
func checkedWith(st *story.Story, ds []diag.Diagnostic, opts story.Options, runnable bool) (*story.Story, []diag.Diagnostic) {
	if st == nil {
		return nil, ds
	}
	foldLoadPlaces(st, ds)
	cds, ok := checkLoad(st, opts, &heldReads{}, runnable)
	if !ok {
		st = nil
	}
	return st, diag.Sort(append(ds, cds...))
}

// Check runs every rule over st and each of its imported children and
// returns the diagnostics, sorted. opts are the load's. ok is false when a
// rule panicked (reported as rule internal); st is then not to be trusted.
func Check(st *story.Story, opts story.Options) (ds []diag.Diagnostic, ok bool) {
	return checkLoad(st, opts, &heldReads{}, false)
}

// checkLoad is Check, the files its checks read held in held (one for
// the story and all its children: tests lower its bound), the LintOnly
// passes skipped when runnable (LoadRunnable).
func checkLoad(st *story.Story, opts story.Options, held *heldReads, runnable bool) (ds []diag.Diagnostic, ok bool) {
	rep := &yamlnode.Reporter{}
	// The checks read files through the project roots, which open a
	// directory descriptor on demand.
	defer func() {
		for _, s := range append(st.Children(), st) {
			s.FileRoot().Close()
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			rep.Errf(story.Pos{File: st.File}, story.RuleInternal, "%s", panicked.Logged(os.Stderr, "checking the story", "a lint check", r))
			ds, ok = diag.Sort(rep.Diags), false
		}
	}()
	src := &sources{read: st.Source, held: held, runnable: runnable}
	for _, child := range st.Children() {
		check(child, rep, opts, src)
	}
	check(st, rep, opts, src)
	return diag.Sort(dropCovered(rep.Diags, src.covered)), true
}

// readNamed reads abs, written as written at p, through the project root.
// in is false when it is outside the root: reported here, nothing read.
func (c *checker) readNamed(p story.Pos, what, written, abs string) (data []byte, err error, in bool) {
	root := c.st.FileRoot()
	data, err = c.readStory(filepath.Clean(abs))
	if errors.Is(err, safefile.ErrOutsideRoot) {
		c.rep.Errf(p, story.RuleOutsideRoot, "%s", story.OutsideRootMessage(root, what, written, err))
		return nil, nil, false
	}
	return data, err, true
}
