package cmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/mcpserve"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/trace"
)

func init() { register("mcp", newMCPCmd) }

func newMCPCmd() *cobra.Command {
	c := &cobra.Command{
		Use:     "mcp",
		Short:   "MCP server: serve a story's agent plugins as MCP tools",
		Example: "  kitsoki mcp serve examples/ci-triage --http 127.0.0.1:7301",
	}
	c.AddCommand(newMCPServeCmd(), newMCPSubmitCmd())
	return c
}

// newMCPSubmitCmd is the one-call stdio server kitsoki hands claude for
// builtin.claude_cli decide calls; the first valid answer goes to --out.
func newMCPSubmitCmd() *cobra.Command {
	var schemaPath, out string
	c := &cobra.Command{
		Use:    "submit --schema FILE --out FILE",
		Short:  "Internal: the stdio MCP server with the submit tool given to claude for one call",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if schemaPath == "" || out == "" {
				return usagef("mcp submit needs --schema FILE and --out FILE")
			}
			raw, err := safefile.ReadFile(schemaPath, safefile.Story)
			if err != nil {
				return usagef("--schema: %v", err)
			}
			srv, err := mcpserve.NewSubmitServer(raw, out, version)
			if err != nil {
				return usagef("%v", err)
			}
			t := mcpserve.StdioTransport(c.InOrStdin(), c.OutOrStdout(), agent.DefaultTimeout)
			if err := srv.Run(c.Context(), t); err != nil && !strings.Contains(err.Error(), "EOF") && c.Context().Err() == nil {
				return findingf("mcp submit: %v", err)
			}
			return nil
		},
	}
	c.Flags().StringVar(&schemaPath, "schema", "", "the call's JSON Schema (the submit tool's input schema)")
	c.Flags().StringVar(&out, "out", "", "where the first valid submission is written")
	return c
}

type mcpServeFlags struct {
	httpAddr, tokenEnv, profile, tracePath, root string
	watch, timeout                               time.Duration
	maxCalls, maxSessions                        int
	traceMaxMiB                                  int64
}

func newMCPServeCmd() *cobra.Command {
	var f mcpServeFlags
	c := &cobra.Command{
		Use:     "serve STORY",
		Short:   "Serve one MCP tool per agent alias x verb of STORY (stdio, or --http)",
		Example: "  kitsoki mcp serve examples/ci-triage            # stdio, for an MCP client that spawns it\n  kitsoki mcp serve examples/ci-triage --http 127.0.0.1:7301",
		Long: `Serve exposes every agent alias x verb that STORY calls as an MCP tool named
kitsoki_<slug>_<verb> (input {prompt, args?}, the call site's schema as output
schema; the result is the validated submission as structuredContent).

Every call re-reads the story and the plugin profile, re-checks that the alias
is enabled and validates its input; calls are single-attempt and traced like
story calls (--trace, default .kitsoki/sessions/mcp-<time>.jsonl). Edits to the
story or profile replace the tool list and send notifications/tools/list_changed.
At most --max-calls calls run at once; the others wait for a slot until their
client cancels them.

Transport: stdio by default; --http ADDR serves streamable HTTP (a bare :PORT
binds 127.0.0.1). --token-env VAR requires "Authorization: Bearer $VAR"; a
non-loopback address requires it. At most --max-sessions HTTP sessions are open
at once; a client asking for one more gets 503 unless a session has had no
request for 30 minutes, which is then ended. Headers must arrive within 10s,
a body (at most 4 MiB) within 30s more; an idle connection is closed after
2m; at most 256 connections (4 per session past 64) are open at once.

Ctrl-C or SIGTERM cancels the calls under way (their plugins are stopped) and stops
the server at once, saying so on stderr.

Exit status: 0 clean shutdown (end of input, Ctrl-C, SIGTERM), 1 the story cannot be
served, 2 usage error.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ctx, stop := stopContext(c.Context())
			defer stop()
			return runMCPServe(ctx, c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr(), args[0], &f)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.httpAddr, "http", "", "serve streamable HTTP on ADDR (e.g. :8765 = 127.0.0.1:8765) instead of stdio")
	fl.StringVar(&f.tokenEnv, "token-env", "", "require a bearer token: the value of this environment variable")
	fl.StringVar(&f.profile, "profile", "", "operator plugin profile, applied over the .kitsoki/plugins.yaml found upward from the story")
	addRootFlag(c, &f.root)
	fl.StringVar(&f.tracePath, "trace", "", "trace file (default .kitsoki/sessions/mcp-<time>.jsonl)")
	addTraceBoundFlag(c, &f.traceMaxMiB)
	fl.DurationVar(&f.watch, "watch-interval", time.Second, "how often the story and profile are checked for changes (0 disables; every tools/list and tools/call re-checks)")
	fl.DurationVar(&f.timeout, "timeout", 0, "hard deadline of one call (default 10m)")
	fl.DurationVar(&f.timeout, "call-timeout", 0, "the same as --timeout, the name kitsoki run uses")
	fl.IntVar(&f.maxCalls, "max-calls", mcpserve.DefaultMaxCalls, "tool calls run at once (0 = the default); more wait for a slot until their client cancels them")
	fl.IntVar(&f.maxSessions, "max-sessions", mcpserve.DefaultMaxSessions, "HTTP sessions open at once (0 = the default); one more is refused (503) unless a session idle for 30m can be ended")
	return c
}

func runMCPServe(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, storyPath string, f *mcpServeFlags) error {
	if err := refuseInSandbox("mcp serve"); err != nil {
		return err
	}
	if f.maxCalls < 0 {
		return usagef("--max-calls %d: at least one call must be able to run; use a positive number (0 = the default, %d)", f.maxCalls, mcpserve.DefaultMaxCalls)
	}
	if f.maxSessions < 0 {
		return usagef("--max-sessions %d: at least one session must be able to open; use a positive number (0 = the default, %d)", f.maxSessions, mcpserve.DefaultMaxSessions)
	}
	token := ""
	if f.tokenEnv != "" {
		if token = os.Getenv(f.tokenEnv); token == "" {
			return usagef("--token-env %s: the variable is empty or unset; export the token first", f.tokenEnv)
		}
	}
	var listenAddr string
	if f.httpAddr != "" {
		host, port, err := net.SplitHostPort(f.httpAddr)
		if err != nil {
			return usagef("--http %q: %v; use HOST:PORT or :PORT", f.httpAddr, err)
		}
		host = cmp.Or(host, "127.0.0.1")
		if !isLoopback(host) && token == "" {
			return usagef("--http %s: a non-loopback address needs --token-env VAR (a bearer token)", f.httpAddr)
		}
		listenAddr = net.JoinHostPort(host, port)
	} else if token != "" {
		return usagef("--token-env only applies with --http")
	}
	if err := checkStoryArg(storyPath); err != nil {
		return err
	}
	traceOpt, err := traceOptions(f.traceMaxMiB)
	if err != nil {
		return err
	}

	tracePath := cmp.Or(f.tracePath, filepath.Join(".kitsoki", "sessions", "mcp-"+time.Now().UTC().Format("20060102T150405.000000000")+".jsonl"))
	if err := checkOutInside("--trace", tracePath); err != nil {
		return err
	}
	tw, err := trace.CreateWith(tracePath, trace.Header{Story: storyPath, Generator: "kitsoki " + version + " mcp serve"}, traceOpt)
	if err != nil {
		return usagef("--trace: %s", strings.TrimPrefix(err.Error(), "trace: "))
	}
	defer tw.Close()
	sink := compose.AgentSink(compose.TraceSink(tw))
	logger := mcpserve.Logger(stderr, slog.LevelWarn)
	srv, err := mcpserve.New(mcpserve.Options{StoryPath: storyPath, ProfilePath: f.profile, Root: f.root, Sink: sink, CallTimeout: f.timeout,
		Version: version, Logger: logger, ClaudeSubmit: claudeSubmitCommand(), MaxCalls: f.maxCalls, MaxSessions: f.maxSessions})
	if err != nil {
		if pe, ok := errors.AsType[*plugin.ProfileError](err); ok && pe.ReadErr != nil {
			return profileReadError(f.profile, pe)
		} else if ok {
			return usagef("the plugin profile is malformed:\n%v", pe)
		}
		return findingf("%v", err)
	}
	defer srv.Close()
	// Ctrl-C or SIGTERM cancels the calls under way, so the transport's
	// Run below returns at once instead of after their call timeout
	defer context.AfterFunc(ctx, srv.StopCalls)()
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go srv.Watch(wctx, f.watch)

	if listenAddr == "" {
		t := srv.StdioTransport(stdin, stdout)
		if err := srv.MCP().Run(ctx, t); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "EOF") {
			return findingf("mcp serve: %v", err)
		}
		sayStopped(stderr, ctx)
		return nil
	}
	ln, err := net.Listen("tcp", listenAddr)
	if err != nil {
		return usagef("--http %s: %v", f.httpAddr, err)
	}
	fmt.Fprintf(stderr, "kitsoki mcp serve: %s on http://%s/ (trace %s)\n", storyPath, ln.Addr(), tracePath)
	if err := srv.Serve(ctx, ln, token); err != nil {
		return findingf("mcp serve: %v", err)
	}
	sayStopped(stderr, ctx)
	return nil
}

// sayStopped says, on a line of its own, that a signal stopped the
// server (the calls under way cancelled); a server stopping is a clean
// shutdown, exit 0, as a service manager's SIGTERM expects.
func sayStopped(stderr io.Writer, ctx context.Context) {
	if i := interruptedBy(ctx); i != nil {
		fmt.Fprintf(stderr, "kitsoki mcp serve: %s: stopped, calls under way cancelled\n", i)
	}
}

// claudeSubmitCommand is how builtin.claude_cli starts this binary's
// submit server; nil when the executable cannot be located.
func claudeSubmitCommand() []string {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	return []string{exe, "mcp", "submit"}
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
