package cmd

import (
	"maps"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/fetch"
	"kitsoki/pkg/lsp"
	"kitsoki/pkg/story"
	"kitsoki/pkg/trace"
)

// formatValues lists the --format values of each command that has one.
var formatValues = map[string][]string{
	"kitsoki validate":     {"human", "json", "github", "sarif"},
	"kitsoki eval check":   {"human", "json", "github", "sarif"},
	"kitsoki trace export": {"otlp-json"},
	"kitsoki test":         {"text", "github"},
	"kitsoki graph":        {"mermaid", "dot", "svg"},
}

// addCompletions teaches shell completion the values, not only the files:
// --color and --format values, model ids for fetch-models, the story's
// intents for run --intent, session ids for the trace commands. It is wired
// once over the finished tree, so a command file does not repeat it, and only
// for a completion request (runIO), so other commands do not pay for it.
func addCompletions(root *cobra.Command) {
	fixed := func(vals ...string) cobra.CompletionFunc {
		return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return vals, cobra.ShellCompDirectiveNoFileComp
		}
	}
	_ = root.RegisterFlagCompletionFunc(colorFlag, fixed("auto", "always", "never"))
	walkCommands(root, func(c *cobra.Command) {
		if c.Flags().Lookup("format") != nil && c.Flags().Lookup("format") != c.InheritedFlags().Lookup("format") {
			if vals, ok := formatValues[c.CommandPath()]; ok {
				_ = c.RegisterFlagCompletionFunc("format", fixed(vals...))
			}
		}
		switch {
		case c.CommandPath() == "kitsoki fetch-models":
			c.ValidArgsFunction = completeModels
		case c.CommandPath() == "kitsoki run":
			_ = c.RegisterFlagCompletionFunc("intent", completeIntents)
		case c.HasParent() && c.Parent().Name() == "trace" && c.Name() != "ls":
			c.ValidArgsFunction = completeSessions
		}
	})
}

func walkCommands(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, sub := range c.Commands() {
		walkCommands(sub, f)
	}
}

func completeModels(c *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
	overlay := ""
	if fl := c.Flags().Lookup("pins"); fl != nil {
		overlay = fl.Value.String()
	}
	pins, err := fetch.LoadPins(overlay)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return withPrefix(slices.Sorted(maps.Keys(pins.Models)), prefix), cobra.ShellCompDirectiveNoFileComp
}

// completeIntents offers the intents of the story named by the first
// argument: the global library and every state's local intents.
func completeIntents(_ *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
	if len(args) == 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	st, _ := story.Load(args[0], story.Options{AllowUnsetEnv: true})
	if st == nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return withPrefix(lsp.IntentNames(st), prefix), cobra.ShellCompDirectiveNoFileComp
}

// completeSessions offers the ids of the traces under the sessions
// directory, and files as well (a PATH may be either).
func completeSessions(c *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
	dir := trace.DefaultSessionsDir
	if fl := c.Flags().Lookup("sessions-dir"); fl != nil {
		dir = fl.Value.String()
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, cobra.ShellCompDirectiveDefault
	}
	files, err := trace.ListTraces(dir, nil)
	if err != nil {
		return nil, cobra.ShellCompDirectiveDefault
	}
	var ids []string
	for _, f := range files {
		ids = append(ids, f.ID)
	}
	return withPrefix(ids, prefix), cobra.ShellCompDirectiveDefault
}

// withPrefix keeps the values that start with prefix and that a shell can
// show and insert as they are: a value holding a control character (an
// intent or a trace file name the repository chose, with an escape
// sequence for the terminal that lists the candidates, a tab that cobra's
// protocol reads as a description, a newline that starts another
// candidate) is left out, as a value nobody could type anyway.
func withPrefix(vals []string, prefix string) []string {
	return slices.DeleteFunc(vals, func(v string) bool {
		return !strings.HasPrefix(v, prefix) || strings.ContainsFunc(v, func(r rune) bool { return r == '\n' || r == '\t' || termsafe.IsControl(r) }) || !utf8.ValidString(v)
	})
}
