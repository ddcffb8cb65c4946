package cmd

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
)

// Stamped at build time with -ldflags "-X kitsoki/cmd.version=... -X kitsoki/cmd.commit=...".
var (
	version = "dev"
	commit  = "none"
)

func versionString() string {
	return fmt.Sprintf("kitsoki %s (commit %s, %s)", version, commit, runtime.Version())
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print version, commit and Go version",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			fmt.Fprintln(c.OutOrStdout(), versionString())
			return nil
		},
	}
}
