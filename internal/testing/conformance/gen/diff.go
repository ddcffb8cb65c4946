package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"kitsoki/internal/testing/conformance"
	"kitsoki/pkg/flowtest"
)

// diffTree compares existing.json with ours.json in every story directory
// under dir. A story the existing engine wrote no report for is not
// comparable (it cannot load or run it) and is listed as such.
func diffTree(w io.Writer, dir string) (differ, total int, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, 0, err
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		d := filepath.Join(dir, e.Name())
		ex, exErr := conformance.ReadReport(filepath.Join(d, "existing.json"))
		ours, oErr := conformance.ReadReport(filepath.Join(d, "ours.json"))
		switch {
		case exErr != nil && oErr != nil:
			if msg, both := loadErrDiff(d); both {
				// both refused the story at load: the verdicts agree. The
				// phase kind's messages are upstream's to the letter and
				// compare; elsewhere ours name the place their own way
				// (docs/compat/story.md), so a different text is shown,
				// not counted.
				total++
				switch {
				case msg == "":
				case declaresPhases(d):
					differ++
					fmt.Fprintf(w, "%s: %s\n", e.Name(), msg)
				default:
					fmt.Fprintf(w, "%s: same verdict, other text: %s\n", e.Name(), msg)
				}
				continue
			}
			fmt.Fprintf(w, "%s: neither engine reports\n", e.Name())
			continue
		case exErr != nil:
			// upstream stops its whole run on a turn error: the turn it
			// names must fail here too (abort_diff.go)
			if msg, ok := abortDiff(d, ours); ok && oErr == nil {
				total++
				if msg != "" {
					differ++
					fmt.Fprintf(w, "%s: %s\n", e.Name(), msg)
				}
				continue
			}
			fmt.Fprintf(w, "%s: not comparable: the existing engine wrote no report\n", e.Name())
			continue
		case oErr != nil:
			total++
			differ++
			fmt.Fprintf(w, "%s: ours wrote no report (see ours.log)\n", e.Name())
			continue
		}
		total++
		msg := diffReports(ex, ours)
		if msg == "" {
			msg = summaryDiff(filepath.Join(d, "existing.log"), filepath.Join(d, "ours.log"))
		}
		if msg != "" {
			differ++
			fmt.Fprintf(w, "%s: %s%s\n", e.Name(), msg, documented(d))
		}
	}
	return differ, total, nil
}

// documented marks a story copied (by -kind mutate or storymut) from a
// golden with a DIFFERS file: its fixtures fail upstream by design, so a
// difference there is most likely the one its README.md documents.
func documented(d string) string {
	if _, err := os.Stat(filepath.Join(d, "DIFFERS")); err != nil {
		return ""
	}
	return " [copied from a DIFFERS golden: likely its documented difference, see README.md]"
}

// diffReports describes the first difference of two reports of the same
// fixtures, or is empty.
func diffReports(ex, ours *flowtest.Report) string {
	if len(ex.Results) != len(ours.Results) {
		return fmt.Sprintf("%d fixtures ran, existing ran %d", len(ours.Results), len(ex.Results))
	}
	for i, a := range ex.Results {
		b := ours.Results[i]
		if filepath.Base(a.File) != filepath.Base(b.File) || a.Skipped != b.Skipped {
			return fmt.Sprintf("fixture %d: %s (skipped %v), existing %s (skipped %v)", i, filepath.Base(b.File), b.Skipped, filepath.Base(a.File), a.Skipped)
		}
		wa, wb := map[string]any{}, map[string]any{}
		sid := flowtest.SessionID(b.File)
		for j := 0; j < len(a.Turns) || j < len(b.Turns); j++ {
			if j >= len(a.Turns) || j >= len(b.Turns) {
				return fmt.Sprintf("%s: %d turns, existing %d", filepath.Base(b.File), len(b.Turns), len(a.Turns))
			}
			ta, tb := a.Turns[j], b.Turns[j]
			applyWorld(wa, ta.Events, "")
			applyWorld(wb, tb.Events, sid)
			at := fmt.Sprintf("%s turn %d", filepath.Base(b.File), ta.TurnIndex)
			switch {
			case ta.NewState != tb.NewState:
				return fmt.Sprintf("%s: state %q, existing %q%s", at, tb.NewState, ta.NewState, failText(ta, tb))
			case ta.Passed != tb.Passed || len(ta.Failures) != len(tb.Failures):
				return fmt.Sprintf("%s: passed %v, existing %v%s", at, tb.Passed, ta.Passed, failText(ta, tb))
			case failuresDiff(ta, tb) != "":
				return fmt.Sprintf("%s: %s", at, failuresDiff(ta, tb))
			case noSession(conformance.NoIDs(ta.View), "") != noSession(conformance.NoIDs(tb.View), sid):
				return fmt.Sprintf("%s: view %q, existing %q", at, tb.View, ta.View)
			case !reflect.DeepEqual(wa, wb):
				return fmt.Sprintf("%s: world %s, existing %s", at, worldDiff(wb, wa), worldDiff(wa, wb))
			case callsDiff(ta, tb) != "":
				return fmt.Sprintf("%s: %s", at, callsDiff(ta, tb))
			case len(conformance.EventDiffs(tb, ta, conformance.DocumentedKinds())) > 0:
				return fmt.Sprintf("%s: %s", at, strings.Join(conformance.EventDiffs(tb, ta, conformance.DocumentedKinds()), "; "))
			case payloadDiff(ta, tb, sid) != "":
				return fmt.Sprintf("%s: %s", at, payloadDiff(ta, tb, sid))
			}
		}
		if a.Passed != b.Passed {
			return fmt.Sprintf("%s: passed %v, existing %v", filepath.Base(b.File), b.Passed, a.Passed)
		}
	}
	if ex.Passed != ours.Passed || ex.Failed != ours.Failed {
		return fmt.Sprintf("report counts %d passed %d failed, existing %d and %d", ours.Passed, ours.Failed, ex.Passed, ex.Failed)
	}
	return ""
}

func failText(ta, tb *flowtest.TurnResult) string {
	if len(ta.Failures)+len(tb.Failures) == 0 {
		return ""
	}
	cut := func(fs []string) string {
		s := strings.Join(fs, "; ")
		if len(s) > 200 {
			s = s[:200] + "…"
		}
		return s
	}
	return fmt.Sprintf(" (ours: %q; existing: %q)", cut(tb.Failures), cut(ta.Failures))
}

// applyWorld folds a turn's world.update {set: {...}} events into w, each
// value as its JSON form decodes (so 5 and 5.0 are the same number), the
// session id in it (sid, ours; a UUID, upstream's) a placeholder.
func applyWorld(w map[string]any, evs []flowtest.ReportEvent, sid string) {
	for _, e := range evs {
		if e.Kind != "world.update" {
			continue
		}
		var p struct {
			Set map[string]any `json:"set"`
		}
		if json.Unmarshal(e.Payload, &p) == nil {
			for k, v := range p.Set {
				if strings.HasSuffix(k, "job_id") {
					// job ids are random upstream (host stories
					// bind them to bg_job_id too)
					continue
				}
				w[k] = noSession(conformance.NoIDsIn(v), sid)
			}
		}
	}
}

// worldDiff lists the keys of a whose values b does not share.
func worldDiff(a, b map[string]any) string {
	var parts []string
	for _, k := range sortedKeys(a) {
		if !reflect.DeepEqual(a[k], b[k]) {
			v, _ := json.Marshal(a[k])
			parts = append(parts, k+"="+string(v))
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}
