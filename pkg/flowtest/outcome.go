package flowtest

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/trace"
)

// Stories is the stories of files, each once, in order.
func Stories(files []*File) []string {
	var apps []string
	for _, f := range files {
		if !slices.Contains(apps, f.Story) {
			apps = append(apps, f.Story)
		}
	}
	return apps
}

// Outcome is what a run's results come to, as an exit status tells it.
type Outcome int

const (
	// AllPassed: every fixture passed or was skipped.
	AllPassed Outcome = iota
	// SomeFailed: a fixture failed (a skipped one does not).
	SomeFailed
	// SomeBroken: a fixture could not run at all.
	SomeBroken
)

// OutcomeOf is the outcome of results: broken before failed.
func OutcomeOf(results []*Result) Outcome {
	switch {
	case slices.ContainsFunc(results, func(r *Result) bool { return r.Fatal != nil }):
		return SomeBroken
	case slices.ContainsFunc(results, func(r *Result) bool { return !r.Passed() && !r.Flow.Skipped }):
		return SomeFailed
	}
	return AllPassed
}

// WriteUpstreamSummary writes the existing engine's last two lines of
// `test flows`, which CI scripts grep.
func WriteUpstreamSummary(w io.Writer, results []*Result) {
	passed, failed := Tally(results)
	verdict := "PASS"
	if failed > 0 {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "Summary: %d/%d flows pass\n%s\n", passed, passed+failed, verdict)
}

// CopyLastTrace copies the last fixture's trace to dst (its owner's only,
// as trace files are), with its agent-prompts/ files beside it as
// upstream writes them beside --trace-out (docs/compat/trace-eval.md A.9),
// through root (the project root above the working directory) when dst is
// inside it. Nothing is written when no fixture left a trace.
func CopyLastTrace(results []*Result, root, dst string) error {
	if len(results) == 0 {
		return nil
	}
	last := results[len(results)-1].Trace
	if last == "" {
		return nil
	}
	data, err := os.ReadFile(last)
	if err == nil {
		err = atomicfile.WriteBelow(root, dst, data, 0o600)
	}
	if err == nil {
		err = trace.CopySidecars(last, dst, root, data, safefile.Cassette)
	}
	return err
}

// FilterIgnored drops the fixture diagnostics a `# kitsoki:ignore`
// comment in the fixture silences. A fixture outside its story's project
// root (root, else trees) was refused unread and is not read for its
// comments either.
func FilterIgnored(ds []diag.Diagnostic, root string, trees []string) []diag.Diagnostic {
	return diag.FilterIgnored(ds, func(p string) ([]byte, bool) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, false
		}
		// read through the root: a link swapped in since the fixture was
		// refused or read is refused too, never followed out
		r := safefile.NewRoot(StoryRoot(p, root, trees...))
		defer r.Close()
		b, err := r.ReadFile(abs, safefile.Data)
		return b, err == nil
	})
}
