package cmd

import "github.com/spf13/cobra"

// addRootFlag adds --root to c: the project root every file a story or
// fixture names must lie in (story.Options.Root, through compose).
func addRootFlag(c *cobra.Command, root *string) {
	c.Flags().StringVar(root, "root", "", "project root `DIR`: every file a story or fixture names must lie inside it (default: the nearest directory above the story holding .git or .kitsoki/, else the DIR of a DIR/... argument, else the story's directory)")
}
