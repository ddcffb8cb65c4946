package cmd

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"kitsoki/internal/yamlnode"
)

// flagError is the usage error for a flag the command line got wrong: the
// parser's message, for an unknown long flag the flag the author likely
// meant (by spelling, else the flags that share its first word: --trace-out
// on run, whose trace file is --trace), and where the usage is.
func flagError(c *cobra.Command, err error) error {
	hint := unknownFlagHint(c, err.Error())
	if hint == "" {
		hint = missingValueHint(c, err.Error())
	}
	if hint != "" {
		hint = "; " + hint
	}
	return &exitError{code: exitUsageEnv, err: fmt.Errorf("%w%s\nrun '%s --help' for usage", err, hint, c.CommandPath())}
}

// missingValueHint says what the flag pflag's message ("flag needs an
// argument: --NAME", or "'x' in -x" for a shorthand) reports without its
// value takes, from the flag's own usage ("" when the flag is not found).
func missingValueHint(c *cobra.Command, msg string) string {
	rest, ok := strings.CutPrefix(msg, "flag needs an argument: ")
	if !ok {
		return ""
	}
	var f *pflag.Flag
	if name, long := strings.CutPrefix(rest, "--"); long {
		f = c.Flags().Lookup(name)
	} else if len(rest) > 2 && rest[0] == '\'' {
		f = c.Flags().ShorthandLookup(rest[1:2])
	}
	if f == nil {
		return ""
	}
	varname, usage := pflag.UnquoteUsage(f)
	if varname == "" {
		varname = "VALUE"
	}
	return fmt.Sprintf("it takes a value: --%s %s (%s)", f.Name, varname, usage)
}

// unknownFlagHint names the flags of c close to the one pflag's message
// ("unknown flag: --NAME") says is unknown, or "" when none is.
func unknownFlagHint(c *cobra.Command, msg string) string {
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok || name == "" {
		return ""
	}
	name, _, _ = strings.Cut(name, "=")
	var names []string
	seen := map[string]bool{}
	add := func(f *pflag.Flag) {
		if !f.Hidden && !seen[f.Name] {
			seen[f.Name] = true
			names = append(names, f.Name)
		}
	}
	c.Flags().VisitAll(add)
	c.InheritedFlags().VisitAll(add)
	sort.Strings(names)
	if s := yamlnode.Suggest(name, names); s != "" {
		return "did you mean --" + s + "?"
	}
	word, _, _ := strings.Cut(name, "-")
	var kin []string
	for _, n := range names {
		if n == word || strings.HasPrefix(n, word+"-") {
			kin = append(kin, "--"+n)
		}
	}
	if len(kin) == 0 {
		return ""
	}
	return "this command has " + strings.Join(kin, ", ")
}
