package eval

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/safefile"
	"kitsoki/internal/termsafe"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// CheckSelections checks every host.agent.* effect's selection: against
// its eval dataset and evidence report: present, parsing, not stale, and
// pinning a passing candidate. Errors are positioned at the selection:;
// they name the story's directory as its manifest is named.
func CheckSelections(st *story.Story) []diag.Diagnostic {
	if st == nil {
		return nil
	}
	return checkSelections(st, filepath.Dir(st.File))
}

// checkSelections is CheckSelections naming the story's directory shown
// (evals/ and the datasets in it below that).
func checkSelections(st *story.Story, shown string) []diag.Diagnostic {
	var out []diag.Diagnostic
	var datasets []*Dataset
	var broken map[string]error
	looked := false // evals/ is listed at the first pin: most stories have none
	report := func(pos story.Pos, format string, a ...any) {
		out = append(out, diag.Diagnostic{File: pos.File, Line: pos.Line, Col: pos.Col, Severity: diag.Error, Rule: ruleSelection.ID, Message: fmt.Sprintf(format, a...)})
	}
	for _, ae := range agentEffects(st) {
		e := ae.Effect
		sel := e.Selection()
		if sel == nil {
			continue
		}
		if !looked {
			datasets, broken = storyDatasets(st.Dir, shown)
			looked = true
		}
		id := strings.TrimSpace(e.ID())
		if id == "" {
			report(sel.Pos, "selection: pins a model for %s but the effect has no id:; add id: so its eval dataset (evals/*.yaml with call: <id>) can be found", e.Invoke)
			continue
		}
		d := pinnedDataset(st, datasets, id, sel.Evidence)
		if d == nil && len(broken) > 0 {
			// one of them may be the call's: say why none could be read
			var why []string
			for _, f := range slices.Sorted(maps.Keys(broken)) {
				why = append(why, broken[f].Error()) // names the file
			}
			report(sel.Pos, "selection: no eval dataset for call %q loads under %s, and %d dataset(s) there do not load (%s); fix them (kitsoki eval check %s says how), then kitsoki eval run the call's", id, filepath.Join(shown, "evals"), len(broken), strings.Join(why, "; "), shown)
			continue
		}
		if d == nil {
			report(sel.Pos, "selection: no eval dataset for call %q under %s (add evals/%s.yaml with kind: agent_eval and call: %s, then kitsoki eval run it)", id, filepath.Join(shown, "evals"), id, id)
			continue
		}
		cs := newCallSite(ae.State, ae.Index, e)
		cur := computeHashes(d, st, cs)
		pin := Pin{Profile: sel.Profile, Model: sel.Model, Effort: sel.Effort, Evidence: sel.Evidence}
		out = append(out, pinErrors(checkPin(st, d, pin, cur), sel.Pos, sel.Keys, "evidence")...)
	}
	return out
}

// pinnedDataset is the dataset of call id a pin is checked against: the
// one whose report its evidence is when several datasets measure the call
// (a quick one beside the full one), else the first; nil for none.
func pinnedDataset(st *story.Story, datasets []*Dataset, id, evidence string) *Dataset {
	var of []*Dataset
	for _, d := range datasets {
		if d.Call == id {
			of = append(of, d)
		}
	}
	if len(of) == 0 {
		return nil
	}
	if len(of) > 1 && evidence != "" {
		root := st.FileRoot()
		if p, err := root.Resolve(st.Dir, evidence); err == nil {
			if r, err := loadReportIn(root, p); err == nil {
				if i := slices.IndexFunc(of, func(d *Dataset) bool { return d.EvalName() == r.Eval }); i >= 0 {
					return of[i]
				}
			}
		}
	}
	return of[0]
}

type pinProblem struct {
	msg      string
	evidence bool // about the evidence file rather than the pin
}

// pinErrors are a pin's problems as errors at pos, those about the
// evidence file at keys[evidence] when it is known.
func pinErrors(probs []pinProblem, pos story.Pos, keys map[string]story.Pos, evidence string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, p := range probs {
		at := pos
		if ep, ok := keys[evidence]; ok && p.evidence {
			at = ep
		}
		out = append(out, diag.Diagnostic{File: at.File, Line: at.Line, Col: at.Col, Severity: diag.Error, Rule: ruleSelection.ID, Message: p.msg})
	}
	return out
}

// checkPin checks a pin against its evidence report.
func checkPin(st *story.Story, d *Dataset, pin Pin, cur Hashes) []pinProblem {
	storyDir := st.Dir
	// rel is a path as a message quotes it: relative to the story, on one
	// line.
	rel := func(p string) string {
		if r, err := filepath.Rel(storyDir, p); err == nil {
			p = filepath.ToSlash(r)
		}
		return termsafe.Line(p)
	}
	var r *Report
	var err error
	evidence := pin.Evidence
	if evidence != "" {
		root := st.FileRoot()
		p, rerr := root.Resolve(storyDir, evidence)
		if rerr == nil {
			_, rerr = root.Stat(p)
		}
		if errors.Is(rerr, safefile.ErrOutsideRoot) {
			return []pinProblem{{story.OutsideRootMessage(root, "selection.evidence", evidence, rerr), true}}
		}
		if rerr != nil {
			return []pinProblem{{fmt.Sprintf("selection.evidence %q: report not found; run kitsoki eval run %s to produce it", evidence, rel(d.Path)), true}}
		}
		r, err = loadReportIn(root, p)
	} else {
		r, err = latestReport(d)
		evidence = rel(reportsDir(d)) + "/latest.json"
		if err == nil && r == nil {
			return []pinProblem{{fmt.Sprintf("selection: no evidence report for call %q under %s; run kitsoki eval run %s", d.Call, rel(reportsDir(d)), rel(d.Path)), true}}
		}
		if r != nil {
			evidence = rel(r.Path)
		}
	}
	if err != nil {
		return []pinProblem{{fmt.Sprintf("selection.evidence %q does not parse: %s", evidence, termsafe.Line(err.Error())), true}}
	}
	if r.Call != d.Call {
		return []pinProblem{{fmt.Sprintf("selection.evidence %q measures call %q, not %q: a report is evidence only for the call it measured; point evidence at %s/latest.json or re-run kitsoki eval run %s", evidence, r.Call, d.Call, rel(reportsDir(d)), rel(d.Path)), true}}
	}
	if f := staleFields(r.Hashes, cur); len(f) > 0 {
		return []pinProblem{{fmt.Sprintf("selection.evidence %q is stale: the %s changed since it was generated; re-run kitsoki eval run %s", evidence, strings.Join(f, ", "), rel(d.Path)), true}}
	}
	if pin.Profile == "" {
		if ReportStatus(r, cur) != StatusPassing {
			return []pinProblem{{fmt.Sprintf("selection.evidence %q has no passing candidate", evidence), true}}
		}
		return nil
	}
	label := termsafe.Line(candidateLabel(pin.Profile, pin.Model, pin.Effort))
	var match *Candidate
	for i := range r.Candidates {
		c := &r.Candidates[i]
		if c.Profile == pin.Profile && (pin.Model == "" || c.Model == pin.Model) && (pin.Effort == "" || c.Effort == pin.Effort) {
			if match == nil || (!match.Pass && c.Pass) {
				match = c
			}
		}
	}
	if match == nil {
		return []pinProblem{{fmt.Sprintf("selection pins %s but %q measured no such candidate; add it to the dataset's matrix and re-run kitsoki eval run %s", label, evidence, rel(d.Path)), false}}
	}
	if !match.Pass {
		why := ""
		if match.Rejected != "" {
			why = " (" + termsafe.Line(match.Rejected) + ")"
		}
		return []pinProblem{{fmt.Sprintf("selection pins %s but that candidate did not pass the adherence bar in %q%s; pin a passing candidate", label, evidence, why), false}}
	}
	return nil
}

// storyDatasets parses <dir>/evals/*.yaml, skipping files that do not
// parse; shown names dir in their errors.
func storyDatasets(dir, shown string) ([]*Dataset, map[string]error) {
	files, _ := Discover(dir)
	var out []*Dataset
	broken := map[string]error{}
	for _, f := range files {
		d, err := loadDatasetShown(f, filepath.Join(shown, "evals", filepath.Base(f)))
		if err != nil {
			broken[f] = err
			continue
		}
		out = append(out, d)
	}
	return out, broken
}

// Check is `kitsoki eval check`: the story's selection: pins and every
// dataset's selection.pinned, each against its evidence.
func Check(storyDir string, loader *StoryLoader) ([]diag.Diagnostic, error) {
	if loader == nil {
		loader = &StoryLoader{}
	}
	abs, err := filepath.Abs(storyDir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("eval check: %s is not a story directory", storyDir)
	}
	files, err := Discover(abs)
	if err != nil {
		return nil, err
	}
	var out []diag.Diagnostic
	manifest := filepath.Join(abs, story.StoryFile)
	_, noManifest := os.Lstat(manifest) // a link out is refused by the load, existing target or not
	if noManifest != nil && len(files) == 0 {
		return nil, fmt.Errorf("eval check: %s is not a story directory (no app.yaml and no evals/*.yaml); give the directory holding the story's app.yaml", storyDir)
	}
	if noManifest == nil {
		ld, err := loader.Load(manifest)
		if err != nil {
			out = append(out, diag.Diagnostic{File: manifest, Severity: diag.Error, Rule: ruleSelection.ID, Message: "load app: " + err.Error()})
		} else {
			out = append(out, checkSelections(ld.Story, storyDir)...)
		}
	}
	for _, f := range files {
		d, err := loadDatasetShown(f, asNamed(abs, storyDir, f))
		if err != nil {
			out = append(out, diag.Diagnostic{File: f, Severity: diag.Error, Rule: ruleEval.ID, Message: err.Error()})
			continue
		}
		if d.Selection == nil || d.Selection.Pinned == nil {
			continue
		}
		v := Validate(d, loader)
		if !v.OK() {
			for _, fd := range v.Findings {
				if fd.Severity == diag.Error {
					out = append(out, fd.Diagnostic())
				}
			}
			continue
		}
		out = append(out, pinErrors(checkPin(v.Story, d, *d.Selection.Pinned, v.Hashes), d.PosOf("selection.pinned"), d.pos, "selection.pinned.evidence")...)
	}
	for i := range out {
		out[i].File = asNamed(abs, storyDir, out[i].File)
	}
	return diag.Sort(out), nil
}

// asNamed is file, found below the absolute story directory abs, as the
// command line named that directory (given): relative to the working
// directory when given was, as kitsoki validate names the files it
// checks, so a CI annotation lands on the diff.
func asNamed(abs, given, file string) string {
	if file == "" || !filepath.IsAbs(file) || filepath.IsAbs(given) {
		return file
	}
	rel, err := filepath.Rel(abs, file)
	if err != nil {
		return file
	}
	return filepath.Join(given, rel)
}
