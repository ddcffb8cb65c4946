package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/safefile"
	"kitsoki/internal/testing/conformance"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/flowtest"
)

// gen lintscore DIR [NAME] (after lintscore.sh, after compare.sh) scores
// `kitsoki validate` (its -f json findings in DIR/NNN/NAME, by default
// validate.json) against the existing engine's verdicts (existing.json,
// else a conformance golden's upstream.json; a story dir at any depth,
// storyDirs): a fixture is flagged when
// validate reports, in its file, an error or a warning that predicts a
// failure (any rule but the hygiene ones, hygieneRules), or an error
// anywhere in the story (which then does not run); a flagged fixture
// upstream fails is a hit, one it passes a false positive. A story
// upstream wrote no report for (it refused the load or aborted the run)
// is not scored. A multi-document fixture file's findings flag each of
// its documents.

// hygieneRules are the fixture warnings that say nothing of the verdict:
// a key or stub that does nothing, an assertion never evaluated, a value
// or slot of another type than declared (a guard reading it may fail), a
// NaN duration, a slot a handler refuses (a fixture may expect the
// failure: flow-world-known or flow-wrong-state tell the verdict).
var hygieneRules = map[string]bool{
	"flow-unknown-key": true, "flow-ignored-key": true, "flow-unused-stub": true,
	"flow-not-checked": true, "flow-world-type": true, "flow-slot-type": true,
	"flow-nan-duration": true, "flow-slot-uint": true,
}

// score is what lintscore counts, per story and in all.
type score struct {
	fails, hits, passes, falsePos int
	// refused, refusedHit: stories upstream refused to load, and those
	// of them validate reports an error on
	refused, refusedHit int
	// rules counts the hits by the rule of the first finding
	rules map[string]int
}

func (s *score) add(o score) {
	s.fails += o.fails
	s.hits += o.hits
	s.passes += o.passes
	s.falsePos += o.falsePos
	s.refused += o.refused
	s.refusedHit += o.refusedHit
	for r, n := range o.rules {
		if s.rules == nil {
			s.rules = map[string]int{}
		}
		s.rules[r] += n
	}
}

// maxValidateReport bounds the validate.json lintscore reads.
const maxValidateReport = 64 << 20

// lintScore prints each scored story's counts, its false positives and
// misses, and the totals.
func lintScore(w io.Writer, dir, name string) (score, int, error) {
	dirs, err := storyDirs(dir)
	if err != nil {
		return score{}, 0, err
	}
	var total score
	unscored := 0
	for _, d := range dirs {
		ex, err := conformance.ReadReport(filepath.Join(d, "existing.json"))
		if errors.Is(err, fs.ErrNotExist) {
			ex, err = conformance.ReadReport(filepath.Join(d, "upstream.json"))
		}
		found, ferr := readFindings(filepath.Join(d, name))
		if err != nil {
			if ferr == nil {
				total.add(scoreRefused(w, d, storyName(dir, d), found))
			}
			unscored++
			continue
		}
		if ferr != nil {
			return total, unscored, fmt.Errorf("%s: %w (run lintscore.sh)", d, ferr)
		}
		s := scoreStory(w, storyName(dir, d), ex, d, found)
		total.add(s)
	}
	return total, unscored, nil
}

// storyMarks are the files that make a directory holding an app.yaml a
// scored story: an existing engine's report (compare.sh's, or a
// conformance golden's), or the log of a run that wrote none.
var storyMarks = []string{"existing.json", "existing.log", "upstream.json"}

// storyDirs is every directory under dir, at any depth, holding an
// app.yaml and one of storyMarks: a batch's NNN, and a conformance
// golden's nested dirs (clock/fail-landing), in lexical order; an
// imported child beside its story holds no report and is not one.
func storyDirs(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if _, err := os.Stat(filepath.Join(p, "app.yaml")); err != nil {
			return nil
		}
		for _, m := range storyMarks {
			if _, err := os.Stat(filepath.Join(p, m)); err == nil {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	return out, err
}

// storyName is d as its line names it: its path below the batch dir.
func storyName(dir, d string) string {
	if r, err := filepath.Rel(dir, d); err == nil {
		return r
	}
	return filepath.Base(d)
}

// scoreStory scores the fixtures of the story in dir (named name) and
// prints its line.
func scoreStory(w io.Writer, name string, ex *flowtest.Report, dir string, found []diag.Diagnostic) score {
	byFile := map[string][]diag.Diagnostic{}
	var storyErr *diag.Diagnostic
	for i, f := range found {
		if f.Severity == diag.Error && storyErr == nil {
			storyErr = &found[i]
		}
		if f.Severity == diag.Error || !hygieneRules[f.Rule] {
			p := absPath(f.File)
			byFile[p] = append(byFile[p], f)
		}
	}
	var s score
	var notes []string
	for _, r := range ex.Results {
		if r == nil || r.Skipped {
			continue
		}
		file, _, _ := strings.Cut(r.File, "#")
		if !filepath.IsAbs(file) {
			if _, err := os.Stat(file); err != nil {
				file = filepath.Join(dir, file) // written from inside the story's dir
			}
		}
		flagged := byFile[absPath(file)]
		if len(flagged) == 0 && storyErr != nil {
			flagged = []diag.Diagnostic{*storyErr}
		}
		base := filepath.Base(r.File)
		switch {
		case !r.Passed && len(flagged) > 0:
			s.fails++
			s.hits++
			if s.rules == nil {
				s.rules = map[string]int{}
			}
			s.rules[flagged[0].Rule]++
		case !r.Passed:
			s.fails++
			notes = append(notes, "  miss "+base)
		case len(flagged) > 0:
			s.passes++
			s.falsePos++
			notes = append(notes, fmt.Sprintf("  FALSE POSITIVE %s: [%s] %s", base, flagged[0].Rule, firstChars(flagged[0].Message, 300)))
		default:
			s.passes++
		}
	}
	fmt.Fprintf(w, "%s: upstream fails %d, validate flags %d; upstream passes %d, validate flags %d\n", name, s.fails, s.hits, s.passes, s.falsePos)
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	return s
}

// scoreRefused counts a story upstream wrote no report for when its log
// holds a load error: a hit when validate reports an error too.
func scoreRefused(w io.Writer, d, name string, found []diag.Diagnostic) score {
	log, err := os.ReadFile(filepath.Join(d, "existing.log"))
	if err != nil || existingLoadErr.Find(log) == nil {
		return score{}
	}
	if slices.ContainsFunc(found, func(f diag.Diagnostic) bool { return f.Severity == diag.Error }) {
		return score{refused: 1, refusedHit: 1}
	}
	fmt.Fprintf(w, "%s: upstream refused the load, validate reports no error\n", name)
	return score{refused: 1}
}

// readFindings reads validate's -f json output.
func readFindings(path string) ([]diag.Diagnostic, error) {
	data, err := safefile.ReadFile(path, maxValidateReport)
	if err != nil {
		return nil, err
	}
	var out []diag.Diagnostic
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// absPath is p made absolute and clean, so both engines' spellings of one
// file compare equal (both ran from the same directory).
func absPath(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	return a
}

// firstChars is s cut to n bytes, for a line of the listing.
func firstChars(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// printScore prints the totals line and the hits by rule.
func printScore(w io.Writer, s score, unscored int) {
	recall := 0.0
	if s.fails > 0 {
		recall = 100 * float64(s.hits) / float64(s.fails)
	}
	for _, r := range slices.Sorted(maps.Keys(s.rules)) {
		fmt.Fprintf(w, "  hits by %s: %d\n", r, s.rules[r])
	}
	fmt.Fprintf(w, "gen lintscore: upstream fails %d fixtures, validate flags %d (recall %.1f%%); upstream passes %d, validate flags %d (false positives); %d stories without an upstream report not scored, of which upstream refused %d to load and validate reports an error on %d\n",
		s.fails, s.hits, recall, s.passes, s.falsePos, unscored, s.refused, s.refusedHit)
}
