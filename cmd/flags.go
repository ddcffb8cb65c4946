package cmd

import (
	"github.com/spf13/cobra"

	"kitsoki/pkg/trace"
)

// addRootFlag adds --root to c: the project root every file a story or
// fixture names must lie in (story.Options.Root, through compose).
func addRootFlag(c *cobra.Command, root *string) {
	c.Flags().StringVar(root, "root", "", "project root `DIR`: every file a story or fixture names must lie inside it (default: the nearest directory above the story holding .git or a .kitsoki/ with more than kitsoki's own sessions/ and coverage.json, else the DIR of a DIR/... argument, else the story's directory)")
}

// addKitsokiRepoFlag adds upstream's --kitsoki-repo, the checkout that
// @kitsoki/<name> imports name.
func addKitsokiRepoFlag(c *cobra.Command, repo *string) {
	c.Flags().StringVar(repo, "kitsoki-repo", "", "kitsoki checkout `DIR` that @kitsoki/<name> imports resolve in (DIR/stories/<name>), before $KITSOKI_REPO")
}

// addSemanticRoutingFlag accepts upstream's global --semantic-routing,
// hidden: it routes free text in interactive sessions only, so it changes
// nothing here.
func addSemanticRoutingFlag(c *cobra.Command) {
	c.Flags().Bool("semantic-routing", false, "accepted for the existing engine's command lines; changes nothing in this command (it routes free text in interactive sessions)")
	_ = c.Flags().MarkHidden("semantic-routing")
}

// strictUsage is the --strict flag of kitsoki run and kitsoki test: the
// engine's opt-in checks (engine.Options.Strict).
const strictUsage = "check what the existing engine lets through: slot values of the wrong type: or refused by their validator:, a set: coerced to a key's declared type kept as coerced, increments of non-integers, a set: or bind: holding NaN, an infinity or the whole world, a with: or emit_intent slot holding NaN or an infinity (kitsoki validate warns where a story relies on the difference)"

// checkCallTimeout validates --call-timeout (0 = the agent layer's default).
func checkCallTimeout(d interface{ Seconds() float64 }) error {
	if d.Seconds() < 0 {
		return usagef("--call-timeout %v: must not be negative (0 keeps the default of 10m)", d)
	}
	return nil
}

// traceBoundUsage is the --trace-max-mib flag's help.
const traceBoundUsage = "bound the trace and the files beside it to this many `MiB`: the write that would pass it ends the trace with a trace.truncated line and fails the command (0 = no bound)"

// addTraceBoundFlag adds --trace-max-mib to c (trace.Options.MaxBytes).
func addTraceBoundFlag(c *cobra.Command, mib *int64) {
	c.Flags().Int64Var(mib, "trace-max-mib", trace.DefaultMaxBytes>>20, traceBoundUsage)
}

// maxTraceMiB keeps --trace-max-mib's bytes within an int64.
const maxTraceMiB = 1 << 40

// traceOptions is the trace.Options of --trace-max-mib.
func traceOptions(mib int64) (trace.Options, error) {
	if mib < 0 || mib > maxTraceMiB {
		return trace.Options{}, usagef("--trace-max-mib %d: give a size in MiB from 1 to %d, or 0 for no bound", mib, int64(maxTraceMiB))
	}
	opt := trace.Options{MaxBytes: mib << 20, BoundFix: "raise --trace-max-mib (0: no bound)"}
	if mib == 0 {
		opt.MaxBytes = -1
	}
	return opt, nil
}
