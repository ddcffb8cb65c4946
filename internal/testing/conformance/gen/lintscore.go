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
	"kitsoki/pkg/lint"
)

// gen lintscore DIR [NAME] (after lintscore.sh, after compare.sh) scores
// `kitsoki validate` (its -f json findings in DIR/NNN/NAME, by default
// validate.json) against the existing engine's verdicts (existing.json,
// else a conformance golden's upstream.json; a story dir at any depth,
// storyDirs): a fixture is flagged when validate reports, in its
// document of its file, a finding that says it fails
// ([conformance.PredictsFailure], the rules TestGoldensNoVerdictOnPassing
// holds to the goldens), or an error anywhere in the story that makes it
// unrunnable ([lint.Blocking]; a fixture's own errors do not); a flagged
// fixture upstream fails is a hit, one it passes a false positive. The
// other findings (what a key, value or file does) are counted apart, on
// passing fixtures, as described. A story upstream wrote no report for
// is scored from its existing.log, never from a golden's upstream.json
// copied beside it: a refused load by whether validate errs
// (scoreRefused), an aborted run by the fixture it stopped at
// (scoreAborted).

// score is what lintscore counts, per story and in all.
type score struct {
	fails, hits, passes, falsePos int
	// described counts the passing fixtures with a finding that is no
	// verdict (flow-shape, flow-unknown-state, a story warning)
	described int
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
	s.described += o.described
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
		ex, err := existingReport(d)
		found, ferr := readFindings(filepath.Join(d, name))
		if err != nil {
			if ferr == nil {
				if s, ok := scoreAborted(w, d, storyName(dir, d), found); ok {
					total.add(s)
					continue
				}
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

// existingReport is the existing engine's report of the story in d: its
// existing.json, else a conformance golden's upstream.json, except when
// existing.log says this run wrote none (it refused the load or aborted):
// a golden's upstream.json copied into a mutated story is stale then.
func existingReport(d string) (*flowtest.Report, error) {
	ex, err := conformance.ReadReport(filepath.Join(d, "existing.json"))
	if !errors.Is(err, fs.ErrNotExist) {
		return ex, err
	}
	if _, lerr := os.Stat(filepath.Join(d, "existing.log")); lerr == nil {
		return nil, err
	}
	return conformance.ReadReport(filepath.Join(d, "upstream.json"))
}

// scoreAborted scores a story whose run upstream aborted (existing.log
// names the fixture and turn that stopped it, abortLine): that fixture
// failed, and is scored as one; the fixtures the run never reached are
// not. ok is false when the log names no such abort, or a timing one.
func scoreAborted(w io.Writer, d, name string, found []diag.Diagnostic) (s score, ok bool) {
	log, err := safefile.ReadFile(filepath.Join(d, "existing.log"), maxValidateReport)
	if err != nil {
		return score{}, false
	}
	ms := abortLine.FindAllSubmatch(log, -1)
	if len(ms) == 0 || timingAbort.Match(ms[len(ms)-1][3]) {
		return score{}, false
	}
	ex := &flowtest.Report{Results: []*flowtest.FlowResult{{File: string(ms[len(ms)-1][1])}}}
	return scoreStory(w, name+" (aborted)", ex, d, found), true
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
	results := scoredResults(ex, dir)
	verdict, other, storyErr := flagFixtures(results, found)
	var s score
	var notes []string
	for i, r := range results {
		flagged := verdict[i]
		if len(flagged) == 0 && storyErr != nil {
			flagged = []diag.Diagnostic{*storyErr}
		}
		base := filepath.Base(r.file)
		switch {
		case !r.passed && len(flagged) > 0:
			s.fails++
			s.hits++
			if s.rules == nil {
				s.rules = map[string]int{}
			}
			s.rules[flagged[0].Rule]++
		case !r.passed:
			s.fails++
			notes = append(notes, "  miss "+base)
		case len(flagged) > 0:
			s.passes++
			s.falsePos++
			notes = append(notes, fmt.Sprintf("  FALSE POSITIVE %s: [%s] %s", base, flagged[0].Rule, firstChars(flagged[0].Message, 300)))
		default:
			s.passes++
			if len(other[i]) > 0 {
				s.described++
			}
		}
	}
	fmt.Fprintf(w, "%s: upstream fails %d, validate flags %d; upstream passes %d, validate flags %d\n", name, s.fails, s.hits, s.passes, s.falsePos)
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	return s
}

// result is one fixture upstream ran: its file (absolute), the index of
// its document in the file and the count of fixtures the file holds, and
// its verdict.
type result struct {
	file       string
	doc, count int
	passed     bool
}

// scoredResults are the fixtures of ex upstream did not skip, in order.
func scoredResults(ex *flowtest.Report, dir string) []result {
	var out []result
	perFile := map[string]int{}
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
		file = absPath(file)
		out = append(out, result{file: file, doc: perFile[file], passed: r.Passed})
		perFile[file]++
	}
	for i := range out {
		out[i].count = perFile[out[i].file]
	}
	return out
}

// flagFixtures files each finding under the fixtures it is about: a
// verdict ([conformance.PredictsFailure]) or another finding in a fixture's
// file under the fixture whose document holds its line (each of the
// file's fixtures when the documents do not pair up with them, or no line
// is given), and the first blocking story error apart.
func flagFixtures(results []result, found []diag.Diagnostic) (verdict, other [][]diag.Diagnostic, storyErr *diag.Diagnostic) {
	verdict = make([][]diag.Diagnostic, len(results))
	other = make([][]diag.Diagnostic, len(results))
	srcs := map[string][]byte{}
	for i, f := range found {
		if storyErr == nil && lint.Blocking(f) && !isFixtureRule(f.Rule) {
			storyErr = &found[i]
		}
		file := absPath(f.File)
		for j, r := range results {
			if r.file != file || !inDocument(srcs, r, f.Line) {
				continue
			}
			if conformance.PredictsFailure(f.Rule) {
				verdict[j] = append(verdict[j], f)
			} else {
				other[j] = append(other[j], f)
			}
		}
	}
	return verdict, other, storyErr
}

// inDocument reports whether line of r's file lies in r's document (or the
// file's documents cannot be told apart), reading the file once into srcs.
func inDocument(srcs map[string][]byte, r result, line int) bool {
	if r.count == 1 || line <= 0 {
		return true
	}
	src, ok := srcs[r.file]
	if !ok {
		src, _ = safefile.ReadFile(r.file, maxFixtureFile)
		srcs[r.file] = src
	}
	i := conformance.DocumentAt(src, line, r.count)
	return i < 0 || i == r.doc
}

// maxFixtureFile bounds a fixture file lintscore reads to pair its
// documents with upstream's verdicts.
const maxFixtureFile = 16 << 20

// isFixtureRule reports whether id is a rule of pkg/flowtest's fixture
// parser or linter (whose errors never stop a story running).
func isFixtureRule(id string) bool {
	return slices.ContainsFunc(flowtest.Rules(), func(r diag.Rule) bool { return r.ID == id })
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
	fmt.Fprintf(w, "gen lintscore: upstream fails %d fixtures, validate flags %d (recall %.1f%%); upstream passes %d, validate flags %d (false positives) and describes %d (a finding that is no verdict); %d stories without an upstream report not scored, of which upstream refused %d to load and validate reports an error on %d\n",
		s.fails, s.hits, recall, s.passes, s.falsePos, s.described, unscored, s.refused, s.refusedHit)
}
