package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes shared by every command.
const (
	exitOK       = 0
	exitFinding  = 1
	exitUsageEnv = 2
)

// exitError carries an exit code out of a RunE without printing twice.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// findingf reports a finding (exit 1) with a message.
func findingf(format string, a ...any) error {
	return &exitError{code: exitFinding, err: fmt.Errorf(format, a...)}
}

// usagef reports a usage or environment error (exit 2).
func usagef(format string, a ...any) error {
	return &exitError{code: exitUsageEnv, err: fmt.Errorf(format, a...)}
}

// silentExit ends the command with code after it has already printed its output.
func silentExit(code int) error { return &exitError{code: code} }

// newRootFor builds the tree a command line needs: only the command its
// first argument names exactly, else the whole tree (help, completion,
// suggestions), since building every command's flags costs start-up.
func newRootFor(stdout, stderr io.Writer, args []string) *cobra.Command {
	root := &cobra.Command{
		Use:           "kitsoki",
		Short:         "The toolchain for kitsoki stories: validate, run, fetch, eval, trace",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(flagError)
	addColorFlag(root)
	if sub, ok := soleCommand(args); ok {
		root.AddCommand(sub.new())
		// Neither cobra's completion command nor the root's --version
		// (which reads the build information) is ever run here.
		root.CompletionOptions.DisableDefaultCmd = true
	} else {
		root.Version = versionString()
		for _, sub := range registry {
			root.AddCommand(sub.new())
		}
	}
	root.InitDefaultCompletionCmd()
	completionExamples(root)
	root.SetHelpCommand(newHelpCmd(root))
	strictGroups(root)
	argsWithUsage(root)
	return root
}

// newHelpCmd replaces cobra's help command, which prints the root's help
// and exits 0 for a topic that does not exist.
func newHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:     "help [command]",
		Short:   "Help about any command",
		Example: "  kitsoki help run\n  kitsoki help trace ls",
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if err != nil || target == nil || len(rest) > 0 {
				return usagef("unknown help topic %q; run 'kitsoki --help' for the commands", strings.Join(args, " "))
			}
			return target.Help()
		},
	}
}

// strictGroups makes every command that only groups subcommands refuse an
// unknown subcommand with a usage error instead of exiting 0.
func strictGroups(root *cobra.Command) {
	walkCommands(root, func(c *cobra.Command) {
		if c.HasParent() && c.HasSubCommands() && c.Run == nil && c.RunE == nil {
			c.Args = unknownSubcommand
			c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
		}
	})
}

// walkCommands calls f with c and every command below it.
func walkCommands(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, sub := range c.Commands() {
		walkCommands(sub, f)
	}
}

// unknownSubcommand refuses an unknown subcommand, suggesting the nearest
// ones as cobra does for the root.
func unknownSubcommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2
	}
	if sugg := c.SuggestionsFor(args[0]); len(sugg) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(sugg, "\n\t")
	}
	return usagef("%s\nrun '%s --help' for its commands", msg, c.CommandPath())
}

// isCompletionRequest reports whether args ask cobra's hidden completion
// command for candidates: only then are value completions wired.
func isCompletionRequest(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// registry holds the subcommands' constructors by name; each command file
// registers itself in init.
var registry []subcommand

type subcommand struct {
	name string
	new  func() *cobra.Command
}

// register adds the constructor of the command called name.
func register(name string, new func() *cobra.Command) {
	registry = append(registry, subcommand{name: name, new: new})
}

// soleCommand returns the registered command args[0] names exactly.
func soleCommand(args []string) (subcommand, bool) {
	i := slices.IndexFunc(registry, func(sub subcommand) bool { return len(args) > 0 && sub.name == args[0] })
	if i < 0 {
		return subcommand{}, false
	}
	return registry[i], true
}

// Execute runs kitsoki with the process arguments and returns the exit code.
func Execute() int {
	return Run(os.Args[1:], os.Stdout, os.Stderr)
}

// Run executes the command line args and returns the exit code.
func Run(args []string, stdout, stderr io.Writer) int {
	return runIOContext(context.Background(), args, nil, stdout, stderr)
}

// runIOContext is Run with a standard input (nil: the process's) under
// ctx: a test ends a run at the moment it chooses (once a call is under
// way) instead of on a wall-clock --timeout.
func runIOContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootFor(stdout, stderr, args)
	if isCompletionRequest(args) {
		addCompletions(root)
	}
	if stdin != nil {
		root.SetIn(stdin)
	}
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	if ee, ok := errors.AsType[*exitError](err); ok {
		if ee.err != nil {
			fmt.Fprintf(stderr, "kitsoki: %s\n", printableMessage(ee.err.Error()))
		}
		return ee.code
	}
	// cobra's own errors (unknown command, bad args) are usage errors; its
	// unknown command ends in a newline and names no help, which the
	// subcommand groups' (unknownSubcommand) do.
	msg := strings.TrimRight(err.Error(), "\n")
	if strings.HasPrefix(msg, "unknown command ") {
		msg += "\nrun 'kitsoki --help' for its commands"
	}
	fmt.Fprintf(stderr, "kitsoki: %s\n", printableMessage(msg))
	return exitUsageEnv
}
