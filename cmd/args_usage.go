package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// argsWithUsage makes every command's argument check say, after cobra's
// own words ("accepts 1 arg(s), received 0", kept as upstream prints
// them), what the command takes and where its help is: the words alone
// named neither the argument nor the command.
func argsWithUsage(root *cobra.Command) {
	walkCommands(root, func(c *cobra.Command) {
		check := c.Args
		if check == nil {
			return
		}
		c.Args = func(c *cobra.Command, args []string) error {
			err := check(c, args)
			var done *exitError
			if err == nil || errors.As(err, &done) {
				return err
			}
			name := strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
			return &exitError{code: exitUsageEnv, err: fmt.Errorf("%s: %w\nusage: %s%s\nrun '%s --help' for usage", name, err, c.UseLine(), missingArgHint(c, args), c.CommandPath())}
		}
	})
}

// missingArgHint is the line that says where the missing argument comes
// from, for the commands whose argument the user cannot be expected to
// know by heart: a trace's id.
func missingArgHint(c *cobra.Command, args []string) string {
	if len(args) > 0 || !c.HasParent() || c.Parent().Name() != "trace" {
		return ""
	}
	return fmt.Sprintf("\nPATH is a trace file or the id of one: 'kitsoki trace ls' lists them, newest first (then e.g. '%s ID'); with 'kitsoki completion' set up, TAB completes the ids", c.CommandPath())
}
