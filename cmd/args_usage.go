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
			return &exitError{code: exitUsageEnv, err: fmt.Errorf("%s: %w\nusage: %s\nrun '%s --help' for usage", name, err, c.UseLine(), c.CommandPath())}
		}
	})
}
