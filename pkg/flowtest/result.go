package flowtest

import (
	"fmt"
	"io"
	"strings"
	"time"

	"kitsoki/internal/human"
	"kitsoki/internal/termsafe"
)

// Result is one fixture's outcome: the JSON report's FlowResult plus what
// the text, GitHub and JUnit outputs need.
type Result struct {
	Name     string // display name (file, "#N" for multi-document files)
	Story    string // the app.yaml
	Flow     *FlowResult
	Failures []Failure
	Duration time.Duration
	Turns    int // turns run
	// Trace is the --trace-dir file written for this fixture.
	Trace string
	// Fatal is set when the fixture could not run at all: exit 2.
	Fatal *Failure

	// obs and finalWorld are what each turn and the session showed
	// (Options.Observe), for Runner.Update.
	obs        []*turnObs
	finalWorld map[string]any
}

// Passed reports whether the fixture passed.
func (r *Result) Passed() bool { return r.Fatal == nil && r.Flow != nil && r.Flow.Passed }

// allFailures are the fatal failure, when the fixture could not run, then
// the others: what the GitHub and JUnit outputs list.
func (r *Result) allFailures() []Failure {
	if r.Fatal == nil {
		return r.Failures
	}
	return append([]Failure{*r.Fatal}, r.Failures...)
}

// Failure is one failed expectation, placed at the fixture line that
// declared it.
type Failure struct {
	Turn    int // 0-based; -1 = session level
	Pos     Pos
	Message string
	// State is the state the turn landed in; Want is expect_state.
	State, Want string
	// WorldDiff is the minimal world difference (expect_world failures).
	WorldDiff []string
	// Events are the last events of the turn ("kind detail").
	Events []string
}

// Detail is the failure as text, every string escaped (termsafe).
func (f Failure) Detail() string {
	var b strings.Builder
	where := "session"
	if f.Turn >= 0 {
		where = fmt.Sprintf("turn %d", f.Turn+1)
	}
	fmt.Fprintf(&b, "%s (%s): %s", where, termsafe.Line(f.Pos.String()), termsafe.Printable(f.Message))
	for _, d := range f.WorldDiff {
		fmt.Fprintf(&b, "\n    world %s", termsafe.Line(d))
	}
	if len(f.Events) > 0 {
		b.WriteString("\n    last events of the turn:")
		for _, e := range f.Events {
			fmt.Fprintf(&b, "\n      %s", termsafe.Line(e))
		}
	}
	return b.String()
}

// WriteText prints one line per fixture, each failing turn's failures
// under it, then "N passed, M failed". Every string goes through termsafe,
// so none can send escapes or start a line of its own.
func WriteText(w io.Writer, results []*Result) {
	passed, failed := 0, 0
	for _, r := range results {
		status := "FAIL"
		switch {
		case r.Flow != nil && r.Flow.Skipped:
			status = "SKIP"
		case r.Passed():
			status = "ok  "
			passed++
		default:
			failed++
		}
		fmt.Fprintf(w, "%s  %s  (%d %s, %s)\n", status, termsafe.Line(r.Name), r.Turns, human.Plural(r.Turns, "turn", "turns"), human.Duration(r.Duration))
		fs := r.Failures
		if r.Fatal != nil {
			// the fixture's other session failures (every outside path
			// refused with the first) stand beside the fatal one
			var session []Failure
			session, fs = splitSession(fs)
			for _, f := range append([]Failure{*r.Fatal}, session...) {
				writeFailure(w, f, "      ")
			}
		}
		writeFailures(w, fs)
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
}

func writeFailures(w io.Writer, fs []Failure) {
	for i := 0; i < len(fs); {
		j := i
		for j < len(fs) && fs[j].Turn == fs[i].Turn {
			j++
		}
		group := fs[i:j]
		head := "session"
		if t := group[0].Turn; t >= 0 {
			head = fmt.Sprintf("turn %d → %s", t+1, termsafe.Line(group[0].State))
			for _, f := range group {
				if f.Want != "" {
					head += fmt.Sprintf(" (expected %s)", termsafe.Line(f.Want))
					break
				}
			}
		}
		fmt.Fprintf(w, "      %s\n", head)
		var events []string
		for _, f := range group {
			writeFailure(w, f, "        ")
			if len(f.Events) > 0 {
				events = f.Events
			}
		}
		if len(events) > 0 {
			fmt.Fprintf(w, "        last events of the turn:\n")
			for _, e := range events {
				fmt.Fprintf(w, "          %s\n", termsafe.Line(e))
			}
		}
		i = j
	}
}

// writeFailure prints f at pad: its place and message, then its world
// difference below.
func writeFailure(w io.Writer, f Failure, pad string) {
	fmt.Fprintf(w, "%s%s: %s\n", pad, termsafe.Line(f.Pos.String()), indent(termsafe.Printable(f.Message), pad+"  "))
	for _, d := range f.WorldDiff {
		fmt.Fprintf(w, "%s  world %s\n", pad, termsafe.Line(d))
	}
}

// splitSession parts fs into its session-level failures and the turns'
// (each in its order).
func splitSession(fs []Failure) (session, turns []Failure) {
	for _, f := range fs {
		if f.Turn < 0 {
			session = append(session, f)
		} else {
			turns = append(turns, f)
		}
	}
	return session, turns
}

// WriteGitHub prints GitHub workflow annotations, one per failure, at the
// line of the fixture that declared the failed expectation.
func WriteGitHub(w io.Writer, results []*Result) {
	for _, r := range results {
		for _, f := range r.allFailures() {
			fmt.Fprintf(w, "::error file=%s,line=%d,col=%d,title=%s::%s\n", termsafe.WorkflowProperty(f.Pos.File), f.Pos.Line, f.Pos.Col,
				termsafe.WorkflowProperty("kitsoki test "+r.Name), termsafe.WorkflowData(f.Detail()))
		}
	}
}

func indent(s, pad string) string { return strings.ReplaceAll(s, "\n", "\n"+pad) }
