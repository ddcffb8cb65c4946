package flowtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/junit"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// maxBaselineBytes bounds a baseline file.
const maxBaselineBytes = 8 << 20

// Baseline is a --baseline file: each fixture's last pass rate, keyed
// "<state>::<id>" (upstream's shape).
type Baseline struct {
	GeneratedAt string             `json:"generated_at"`
	AppID       string             `json:"app_id"`
	AppVersion  string             `json:"app_version"`
	Fixtures    map[string]float64 `json:"fixtures"`
}

// ReadBaseline reads a baseline; a file that does not exist is an empty
// baseline (the first run of a new suite), as upstream treats it.
func ReadBaseline(path string) (*Baseline, error) { return ReadBaselineBelow("", path) }

// ReadBaselineBelow is [ReadBaseline] of path read through root (an
// absolute directory, the project root) when path lies inside it: the read
// itself is the confinement, so a link leading out of root on the way,
// planted or swapped in after any check made before the run, is refused
// the same whether its target exists or not, and nothing outside is read.
// A path elsewhere, or root "", is read as it is named.
func ReadBaselineBelow(root, path string) (*Baseline, error) {
	data, err := readBelow(root, path)
	if errors.Is(err, safefile.ErrOutsideRoot) {
		return nil, fmt.Errorf("--baseline %s: the path goes through a symlink leading out of the project root %s; no baseline outside the root is read: remove the link, or name a file elsewhere", path, root)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return &Baseline{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--baseline %s: %s", path, safefile.Reason(err))
	}
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("--baseline %s: not a baseline JSON file (%s); write one with --update-baseline", path, jsonvalue.Reason(data, err))
	}
	return &b, nil
}

// TrackBaseline sets r's regressions against the baseline at path (those
// more than threshold below it) and, with update, writes r's pass rates
// there as app's new baseline, through root when path lies inside it
// (atomicfile.WriteBelow: a link on the way out of root fails the write).
func TrackBaseline(r *IntentReport, root, path string, threshold float64, update bool, app *story.App, now time.Time) error {
	b, err := ReadBaselineBelow(root, path)
	if err != nil {
		return err
	}
	r.Regressions = b.Regressions(r, threshold)
	if update {
		if err := WriteBaseline(root, path, r, app.ID, app.Version, now); err != nil {
			return fmt.Errorf("--baseline %s: %w", path, err)
		}
	}
	return nil
}

// WriteBaseline writes r's pass rates as a baseline, replacing path whole
// (through root when path lies inside it).
func WriteBaseline(root, path string, r *IntentReport, appID, appVersion string, now time.Time) error {
	b := Baseline{GeneratedAt: now.UTC().Format(time.RFC3339), AppID: appID, AppVersion: appVersion, Fixtures: map[string]float64{}}
	for _, f := range r.Fixtures {
		b.Fixtures[f.State+"::"+f.ID] = f.PassRate
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteBelow(root, path, data, 0o644)
}

// Regressions lists the fixtures whose pass rate dropped more than
// threshold below the baseline, in report order.
func (b *Baseline) Regressions(r *IntentReport, threshold float64) []string {
	var out []string
	for _, f := range r.Fixtures {
		was, ok := b.Fixtures[f.State+"::"+f.ID]
		if !ok || was-f.PassRate <= threshold {
			continue
		}
		out = append(out, fmt.Sprintf("regression: %s::%s dropped %.1f%% (was %.1f%%, now %.1f%%)",
			f.State, f.ID, (was-f.PassRate)*100, was*100, f.PassRate*100))
	}
	return out
}

// WriteIntentsJUnit writes r as JUnit XML: a suite per state, a case per
// fixture, failing below its threshold.
func WriteIntentsJUnit(w io.Writer, r *IntentReport) error {
	top := junit.Suites{Name: "kitsoki test intents", CountSkipped: true}
	for _, f := range r.Fixtures {
		var ms int64
		for _, in := range f.Inputs {
			ms += in.DurationMillis
		}
		c := junit.Case{Name: f.ID, Classname: f.State, Time: junit.Secs(float64(ms) / 1000)}
		if f.fx != nil {
			c.File, c.Line = f.fx.File, f.fx.Line
		}
		if !f.Passed {
			body := ""
			for _, in := range f.Inputs {
				if in.BelowMin {
					body += fmt.Sprintf("%q %d/%d", in.Input, in.Passed, in.Runs)
					if in.FirstActualIntent != "" {
						body += " (routed to " + in.FirstActualIntent + ")"
					}
					if in.FirstError != "" {
						body += " (" + in.FirstError + ")"
					}
					body += "\n"
				}
			}
			c.Failure = &junit.Failure{Type: "pass_rate", Body: body,
				Message: fmt.Sprintf("pass rate %.1f%% below the threshold %.0f%%", f.PassRate*100, f.MinPassRate*100)}
		}
		top.Add("intents "+f.State, c, float64(ms)/1000)
	}
	top.Time = junit.Secs(float64(r.DurationMillis) / 1000)
	return junit.Write(w, &top)
}

// readBelow reads path, capped at maxBaselineBytes, through an os.Root of
// root when path lies lexically inside it, else by its name.
func readBelow(root, path string) ([]byte, error) {
	if root != "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		r := safefile.NewRoot(root)
		defer r.Close()
		if _, in := r.Rel(abs); in {
			return r.ReadFile(abs, maxBaselineBytes)
		}
	}
	return safefile.ReadFile(path, maxBaselineBytes)
}
