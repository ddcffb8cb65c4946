package cmd

import (
	"io"
	"os"

	"github.com/spf13/cobra"
)

// colorFlag is the root's --color auto|always|never; auto colours a
// terminal unless NO_COLOR is set or TERM is dumb.
const colorFlag = "color"

func addColorFlag(root *cobra.Command) {
	root.PersistentFlags().String(colorFlag, "auto", "colour: auto (a terminal, unless NO_COLOR is set or TERM=dumb), always or never")
	// a bad value is a usage error before any command does work
	root.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		_, err := useColor(c, nil)
		return err
	}
}

// useColor decides whether c paints what it writes to w.
func useColor(c *cobra.Command, w io.Writer) (bool, error) {
	mode := "auto"
	if fl := c.Flags().Lookup(colorFlag); fl != nil {
		mode = fl.Value.String()
	}
	// validate's --no-color predates --color; it still means never.
	if fl := c.Flags().Lookup("no-color"); fl != nil && fl.Value.String() == "true" {
		mode = "never"
	}
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
	default:
		return false, usagef("--color %q: use auto, always or never", mode)
	}
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false, nil
	}
	return isTerminal(w), nil
}
