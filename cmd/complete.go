package cmd

import (
	"maps"
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
	"kitsoki validate":     {"human", "json", "github", "sarif", "codeclimate"},
	"kitsoki eval check":   {"human", "json", "github", "sarif", "codeclimate"},
	"kitsoki trace export": {"otlp-json"},
	"kitsoki test":         {"text", "github"},
	"kitsoki graph":        {"mermaid", "dot", "svg"},
}

// addCompletions wires value completions (--color and --format values,
// model ids, a story's intents, session ids) over the finished tree, only
// for a completion request.
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
	// listed through the project root, as trace ls lists it: a link out
	// of it on the way offers nothing, whenever it was put there
	sess, err := openSessions(dir)
	if err != nil {
		return nil, cobra.ShellCompDirectiveDefault
	}
	defer sess.Close()
	files, err := sess.List(nil)
	if err != nil {
		return nil, cobra.ShellCompDirectiveDefault
	}
	var ids []string
	for _, f := range files {
		ids = append(ids, f.ID)
	}
	return withPrefix(ids, prefix), cobra.ShellCompDirectiveDefault
}

// withPrefix keeps the values that start with prefix and hold no control
// character, which a shell could not show or insert as typed.
func withPrefix(vals []string, prefix string) []string {
	return slices.DeleteFunc(vals, func(v string) bool {
		return !strings.HasPrefix(v, prefix) || strings.ContainsFunc(v, func(r rune) bool { return r == '\n' || r == '\t' || termsafe.IsControl(r) }) || !utf8.ValidString(v)
	})
}
