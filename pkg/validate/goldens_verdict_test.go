package validate

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/internal/testing/conformance"
)

// conformanceRoots hold the conformance goldens: each directory with an
// upstream.json is a story whose flows/ the existing engine ran.
var conformanceRoots = []string{"../engine/testdata/conformance", "../view/testdata/conformance", "../host/testdata/conformance"}

// TestGoldensNoVerdictOnPassing: validate predicts no failure of a
// fixture the existing engine passes, on every conformance golden (a
// false positive is the worst thing a CI linter does). A finding on a
// fixture it fails is fine; a file of several fixtures is judged by the
// document the finding is in.
func TestGoldensNoVerdictOnPassing(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // upstream ran with no operator profile
	var apps []string
	reports := map[string]*verdicts{}
	for _, root := range conformanceRoots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() != "upstream.json" {
				return err
			}
			rep, err := readVerdicts(p)
			if err != nil {
				return err
			}
			app := filepath.Join(filepath.Dir(p), "app.yaml")
			apps = append(apps, app)
			reports[app] = rep
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(apps) < 100 {
		t.Fatalf("found %d goldens under %v", len(apps), conformanceRoots)
	}
	res := Run(apps, Options{Flows: true})
	passes := map[string][]bool{} // fixture file (clean) -> each document's verdict
	for _, app := range apps {
		for _, r := range reports[app].Results {
			if r == nil {
				continue
			}
			f := filepath.Clean(filepath.Join(filepath.Dir(app), r.File))
			passes[f] = append(passes[f], r.Passed && !r.Skipped)
		}
	}
	flagged := map[string]bool{} // "file#document" of each failing fixture a verdict names
	for _, d := range res.Diagnostics {
		if !conformance.PredictsFailure(d.Rule) {
			continue
		}
		f := filepath.Clean(d.File)
		verdicts, ok := passes[f]
		if !ok {
			continue
		}
		if !passesAt(t, f, d.Line, verdicts) {
			flagged[fixtureKey(t, f, d.Line, verdicts)] = true
			continue
		}
		t.Errorf("%s:%d: [%s] on a fixture the existing engine passes: %s", d.File, d.Line, d.Rule, d.Message)
	}
	if out := os.Getenv("KITSOKI_GOLDENS_SCORE"); out != "" {
		writeScore(t, out, passes, flagged)
	}
}

// fixtureKey names the fixture of file f at line: the file and the index
// of the document holding the line, or the whole file ("*") when its
// documents and verdicts do not pair up.
func fixtureKey(t *testing.T, f string, line int, verdicts []bool) string {
	t.Helper()
	if i := documentAt(t, f, line, len(verdicts)); i >= 0 {
		return fmt.Sprintf("%s#%d", f, i)
	}
	return f + "#*"
}

// writeScore logs how many failing fixtures a verdict flags, of how many,
// and writes the unflagged ones, one a line, to out: the measure of the
// flow linter's reach that KITSOKI_GOLDENS_SCORE asks for.
func writeScore(t *testing.T, out string, passes map[string][]bool, flagged map[string]bool) {
	t.Helper()
	var failing, hit, passing int
	var missed []string
	for f, verdicts := range passes {
		for i, ok := range verdicts {
			if ok {
				passing++
				continue
			}
			failing++
			if flagged[fmt.Sprintf("%s#%d", f, i)] || flagged[f+"#*"] {
				hit++
				continue
			}
			missed = append(missed, fmt.Sprintf("%s#%d", f, i))
		}
	}
	slices.Sort(missed)
	t.Logf("failing fixtures flagged: %d of %d (%d passing)", hit, failing, passing)
	if err := os.WriteFile(out, []byte(strings.Join(missed, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// verdicts is what the test reads of an upstream.json: each flow
// document's file and verdict. Its turns and events are what
// pkg/flowtest's conformance tests compare (they read the whole report
// with [conformance.ReadReport]); decoding them here, for every golden
// under -race, was a sixth of this test's time.
type verdicts struct {
	Results []*struct {
		File            string
		Passed, Skipped bool
	}
}

// readVerdicts reads the verdicts of the report at path.
func readVerdicts(path string) (*verdicts, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var v verdicts
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &v, nil
}

// passesAt reports whether the fixture of file f at line passes
// upstream: the verdict of the document holding the line when the file's
// documents and verdicts pair up, else whether every one passes.
func passesAt(t *testing.T, f string, line int, verdicts []bool) bool {
	t.Helper()
	if i := documentAt(t, f, line, len(verdicts)); i >= 0 {
		return verdicts[i]
	}
	return !slices.Contains(verdicts, false)
}

// documentAt is the index of the document of file f holding line, when
// the file's documents and its n verdicts pair up; -1 else.
func documentAt(t *testing.T, f string, line, n int) int {
	t.Helper()
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return conformance.DocumentAt(src, line, n)
}
