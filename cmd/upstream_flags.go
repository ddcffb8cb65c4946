package cmd

import "github.com/spf13/cobra"

// addKitsokiRepoFlag adds --kitsoki-repo: the kitsoki checkout whose
// stories/<name> an @kitsoki/<name> import names (story.Options.KitsokiRepo),
// before $KITSOKI_REPO; the existing engine takes it on every command.
func addKitsokiRepoFlag(c *cobra.Command, repo *string) {
	c.Flags().StringVar(repo, "kitsoki-repo", "", "kitsoki checkout `DIR` that @kitsoki/<name> imports resolve in (DIR/stories/<name>), before $KITSOKI_REPO")
}

// addSemanticRoutingFlag accepts the existing engine's global
// --semantic-routing on a command it does not change there either: it
// routes free text in interactive sessions, which validate never does and
// flow fixtures do not (their intents bypass routing, their input: turns
// replay a recording; the corpus's fixtures give the same events with and
// without it), so a CI line written for that engine runs unchanged. It is
// hidden: it does nothing here.
func addSemanticRoutingFlag(c *cobra.Command) {
	c.Flags().Bool("semantic-routing", false, "accepted for the existing engine's command lines; changes nothing in this command (it routes free text in interactive sessions)")
	_ = c.Flags().MarkHidden("semantic-routing")
}
