package flowtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
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
func ReadBaseline(path string) (*Baseline, error) {
	data, err := safefile.ReadFile(path, maxBaselineBytes)
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
	b, err := ReadBaseline(path)
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
