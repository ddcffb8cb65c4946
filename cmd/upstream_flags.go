package cmd

import "github.com/spf13/cobra"

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
