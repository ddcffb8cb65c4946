package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"kitsoki/internal/human"
	"kitsoki/internal/termsafe"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/host"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/story"
)

func init() { register("plugins", newPluginsCmd) }

func newPluginsCmd() *cobra.Command {
	var (
		asJSON      bool
		profile     string
		callTimeout time.Duration
	)
	c := &cobra.Command{
		Use:     "plugins [STORY]",
		Short:   "Print the resolved plugin assembly: build order, enablement and why, agents, hooks, warnings",
		Example: "  kitsoki plugins                        # the built-in plugins and the operator profile\n  kitsoki plugins examples/ci-triage     # a story's resolved assembly\n  kitsoki plugins examples/ci-triage --json",
		Long: `Plugins resolves the plugin assembly for STORY (a story directory or app.yaml;
default: the current directory, which may hold no story) and prints it: the build
order, every plugin enabled or disabled and why, every agent alias with its
transport and lifecycle, every hook registration in order, and warnings.

The profile is every .kitsoki/plugins.yaml found upward from the story, then
the user's (kitsoki/plugins.yaml in the user's configuration directory), then
--profile FILE, merged: what one disables no other enables again. External
plugins are read from the plugins/ directory beside --profile and beside the
nearest .kitsoki directory.
--json prints the report; its JSON Schema is pkg/plugin/assembly.schema.json.

Exit status: 0 printed, 1 the story does not load, 2 usage error or a malformed
profile.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkCallTimeout(callTimeout); err != nil {
				return err
			}
			return runPlugins(c.OutOrStdout(), c.ErrOrStderr(), args, profile, asJSON, callTimeout)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the assembly report as JSON")
	c.Flags().DurationVar(&callTimeout, "call-timeout", 0, "show the timeouts a run with this --call-timeout would use (default 10m)")
	c.Flags().StringVar(&profile, "profile", "", "operator plugin profile file, applied over the .kitsoki/plugins.yaml found upward from the story")
	return c
}

// loadStoryForPlugins loads the story at args[0] (or "." when it holds an
// app.yaml): the story, its directory and its path ("" for none).
func loadStoryForPlugins(stderr io.Writer, args []string) (*story.Story, string, string, error) {
	path := "."
	explicit := len(args) == 1
	if explicit {
		path = args[0]
	}
	if path == "-" {
		return nil, "", "", checkStoryArg(path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, "", "", usagef("%s: %v", path, errors.Unwrap(err))
	}
	if fi.IsDir() {
		if _, err := os.Lstat(filepath.Join(path, story.StoryFile)); err != nil { // as validate.Expand
			if explicit {
				return nil, "", "", usagef("%s: no app.yaml in this directory; name a story directory or its app.yaml", path)
			}
			return nil, path, "", nil
		}
	}
	ld, err := compose.Load(path, compose.LoadOptions{NoCompile: true, Strict: true, Story: story.Options{AllowUnsetEnv: true}})
	if msg, _, ok := notLoaded(stderr, path, err); ok {
		return nil, "", "", findingf("%s", msg)
	}
	return ld.Story, ld.Story.Dir, path, nil
}

func runPlugins(stdout, stderr io.Writer, args []string, profile string, asJSON bool, callTimeout time.Duration) error {
	st, dir, path, err := loadStoryForPlugins(stderr, args)
	if err != nil {
		return err
	}
	a, err := plugin.Assemble(plugin.Options{StoryDir: dir, ProfilePath: profile, Story: st})
	if err != nil {
		return profileUsageError(stderr, profile, err)
	}
	rep := a.Report(path)
	plugin.AnnotateTimeouts(rep, st, callTimeout)
	// Host handlers: the built-ins, then the providers' (a provider
	// process is only started by a call, never by listing).
	reg := host.Builtins(host.Options{})
	closeProviders, warns := a.RegisterHostProviders(reg)
	defer func() { _ = closeProviders() }()
	rep.Warnings = append(rep.Warnings, warns...)
	rep.Hosts = plugin.ListHosts(reg, plugin.StoryHostCalls(st)) // a nil story makes no calls
	if asJSON {
		b, err := rep.JSON()
		if err != nil {
			return usagef("encoding the report: %v", err)
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	// Manifest summaries, story aliases and paths are the repository's:
	// escaped on the way out.
	writePluginsHuman(printableWriter{stdout}, rep)
	return nil
}

func writePluginsHuman(w io.Writer, r *plugin.Report) {
	if !r.Profile.Found {
		fmt.Fprintf(w, "profile: none found (default assembly)\n")
	}
	// Every layer, in the order applied: what one disables, none enables.
	for _, l := range r.Profiles {
		fmt.Fprintf(w, "profile: %s (%s)\n", termsafe.Cell(l.Path), layerName(l.Source))
	}
	for _, d := range r.PluginsDirs {
		fmt.Fprintf(w, "external plugins: %s\n", termsafe.Cell(d))
	}
	fmt.Fprintf(w, "build order: %s\n\nplugins:\n", strings.Join(r.BuildOrder, " -> "))
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, p := range r.Plugins {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", termsafe.Cell(p.ID), termsafe.Cell(string(p.Source)), termsafe.Cell(enabledText(p.Enabled, p.Reason)), termsafe.Cell(p.Summary))
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "\nagents:\n")
	if len(r.Agents) == 0 {
		fmt.Fprintf(w, "  (no story)\n")
	}
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, a := range r.Agents {
		fmt.Fprintf(tw, "  %s\t%s (%s)\t%s\ttimeout %s\t%s\n", termsafe.Cell(a.Alias), termsafe.Cell(a.Transport), termsafe.Cell(a.Plugin), termsafe.Cell(a.Lifecycle), termsafe.Cell(a.Timeout), termsafe.Cell(enabledText(a.Enabled, a.Reason)))
		for _, ct := range a.CallTimeouts {
			fmt.Fprintf(tw, "  \t  %s in %s: timeout %s (timeout: on the invoke)\t\t\t\n", termsafe.Cell(ct.Verb), termsafe.Cell(ct.State), termsafe.Cell(ct.Timeout))
		}
	}
	_ = tw.Flush()
	if len(r.Agents) > 0 {
		fmt.Fprintf(w, "  (a call's soft deadline, AskRequest.deadline, is its timeout or the run's --timeout end, whichever comes first)\n")
	}
	fmt.Fprintf(w, "\nhooks:\n")
	if len(r.Hooks) == 0 {
		fmt.Fprintf(w, "  (none)\n")
	}
	for _, h := range r.Hooks {
		fmt.Fprintf(w, "  %d. %s  %s  (on_error: %s)\n", h.Order, termsafe.Cell(string(h.Point)), termsafe.Cell(h.Plugin), termsafe.Cell(h.OnError))
	}
	writeHostsHuman(w, r.Hosts)
	if len(r.Warnings) > 0 {
		fmt.Fprintf(w, "\nwarnings:\n")
		for _, x := range r.Warnings {
			d := diag.Diagnostic{File: x.File, Line: x.Line, Col: x.Col}
			pos := d.Pos()
			if pos != "" {
				pos += ": "
			}
			fmt.Fprintf(w, "  %s%s\n", termsafe.Cell(pos), termsafe.Cell(x.Message))
		}
	}
}

// writeHostsHuman prints the host handlers and the story calls each serves.
func writeHostsHuman(w io.Writer, hosts []plugin.HostEntry) {
	fmt.Fprintf(w, "\nhost handlers:\n")
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	missing := 0
	for _, h := range hosts {
		calls := "no story calls"
		if n := len(h.Uses); n > 0 {
			calls = fmt.Sprintf("%d %s", n, human.Plural(n, "story call", "story calls"))
		}
		if h.Source == "missing" {
			missing++
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", termsafe.Cell(h.Name), termsafe.Cell(h.Source), calls, termsafe.Cell(h.Summary))
	}
	_ = tw.Flush()
	for _, h := range hosts {
		if len(h.Uses) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n  %s is called by:\n", termsafe.Cell(h.Name))
		for _, u := range h.Uses {
			pos := ""
			if u.File != "" {
				pos = fmt.Sprintf("%s:%d: ", u.File, u.Line)
			}
			via := ""
			if u.Handler != h.Name || u.Invoke != "" {
				via = " (" + u.Handler
				if u.Invoke != "" {
					via += " via " + u.Invoke
				}
				via += ")"
			}
			fmt.Fprintf(w, "    %s%s%s\n", termsafe.Cell(pos), termsafe.Cell(u.Site), termsafe.Cell(via))
		}
	}
	if missing > 0 {
		fmt.Fprintf(w, "\n%d host handler(s) the story calls have no handler: a run stops before it starts; add a host provider (.kitsoki/plugins/<dir>/manifest.yaml with hosts:) or answer them with --host-cassette FILE\n", missing)
	}
}

// enabledText is the state column of a plugin or an agent alias.
func enabledText(enabled bool, reason string) string {
	if enabled {
		return "enabled"
	}
	return "disabled: " + reason
}

// layerName says where a profile layer came from.
func layerName(source string) string {
	switch source {
	case plugin.LayerUser:
		return "the user's profile"
	case plugin.LayerFlag:
		return "--profile"
	}
	return "found upward from the story"
}
