package cmd

import "github.com/spf13/cobra"

// addRootFlag adds --root to c: the project root every file a story or
// fixture names must lie in (story.Options.Root, through compose).
func addRootFlag(c *cobra.Command, root *string) {
	c.Flags().StringVar(root, "root", "", "project root `DIR`: every file a story or fixture names must lie inside it (default: the nearest directory above the story holding .git or .kitsoki/, else the DIR of a DIR/... argument, else the story's directory)")
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
const strictUsage = "check what the existing engine lets through: slot values of the wrong type: or refused by their validator:, a set: coerced to a key's declared type kept as coerced, increments of non-integers (kitsoki validate warns where a story relies on the difference)"

// checkCallTimeout validates --call-timeout (0 = the agent layer's default).
func checkCallTimeout(d interface{ Seconds() float64 }) error {
	if d.Seconds() < 0 {
		return usagef("--call-timeout %v: must not be negative (0 keeps the default of 10m)", d)
	}
	return nil
}
