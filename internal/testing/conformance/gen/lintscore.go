package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/flowtest"
)

// gen lintscore DIR (after lintscore.sh, after compare.sh) scores
// `kitsoki validate` against the existing engine's verdicts: a fixture is
// flagged when validate reports a finding in its file, or an error
// anywhere in the story (which then does not run); a flagged fixture
// upstream fails is a hit, one it passes a false positive. A story
// upstream wrote no report for (it refused the load or aborted the run)
// is not scored. A multi-document fixture file's findings flag each of
// its documents.

// score is what lintscore counts, per story and in all.
type score struct {
	fails, hits, passes, falsePos int
	// rules counts the hits by the rule of the first finding
	rules map[string]int
}

func (s *score) add(o score) {
	s.fails += o.fails
	s.hits += o.hits
	s.passes += o.passes
	s.falsePos += o.falsePos
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
func lintScore(w io.Writer, dir string) (score, int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return score{}, 0, err
	}
	var total score
	unscored := 0
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		d := filepath.Join(dir, e.Name())
		ex, err := flowtest.ReadReport(filepath.Join(d, "existing.json"))
		if err != nil {
			unscored++
			continue
		}
		found, err := readFindings(filepath.Join(d, "validate.json"))
		if err != nil {
			return total, unscored, fmt.Errorf("%s: %w (run lintscore.sh)", e.Name(), err)
		}
		s := scoreStory(w, e.Name(), ex, found)
		total.add(s)
	}
	return total, unscored, nil
}

// scoreStory scores one story's fixtures and prints its line.
func scoreStory(w io.Writer, name string, ex *flowtest.Report, found []diag.Diagnostic) score {
	byFile := map[string][]diag.Diagnostic{}
	var storyErr *diag.Diagnostic
	for i, f := range found {
		p := absPath(f.File)
		byFile[p] = append(byFile[p], f)
		if f.Severity == diag.Error && storyErr == nil {
			storyErr = &found[i]
		}
	}
	var s score
	var notes []string
	for _, r := range ex.Results {
		if r == nil || r.Skipped {
			continue
		}
		file, _, _ := strings.Cut(r.File, "#")
		fs := byFile[absPath(file)]
		if len(fs) == 0 && storyErr != nil {
			fs = []diag.Diagnostic{*storyErr}
		}
		base := filepath.Base(r.File)
		switch {
		case !r.Passed && len(fs) > 0:
			s.fails++
			s.hits++
			if s.rules == nil {
				s.rules = map[string]int{}
			}
			s.rules[fs[0].Rule]++
		case !r.Passed:
			s.fails++
			notes = append(notes, "  miss "+base)
		case len(fs) > 0:
			s.passes++
			s.falsePos++
			notes = append(notes, fmt.Sprintf("  FALSE POSITIVE %s: [%s] %s", base, fs[0].Rule, firstChars(fs[0].Message, 300)))
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
	fmt.Fprintf(w, "gen lintscore: upstream fails %d fixtures, validate flags %d (recall %.1f%%); upstream passes %d, validate flags %d (false positives); %d stories without an upstream report not scored\n",
		s.fails, s.hits, recall, s.passes, s.falsePos, unscored)
}
