package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"kitsoki/internal/safefile"
	"kitsoki/internal/termsafe"
	"kitsoki/pkg/story"
	"kitsoki/pkg/trace"
)

func init() { register("trace", newTraceCmd) }

// traceOpts are the flags every trace subcommand shares.
type traceOpts struct {
	sessionsDir string
	// lsListed, when set (tests), runs after trace ls has listed the
	// sessions directory, to swap it.
	lsListed func()
}

func newTraceCmd() *cobra.Command { return traceCmd(&traceOpts{}) }

// traceCmd is the trace command tree sharing o.
func traceCmd(o *traceOpts) *cobra.Command {
	c := &cobra.Command{
		Use:     "trace",
		Short:   "Verify, read, summarise, export and replay JSONL traces",
		Example: "  kitsoki trace ls\n  kitsoki trace show 20261130T113926Z\n  kitsoki trace verify .kitsoki/sessions/*.jsonl",
		Long: `Verify, read, summarise, export and replay the JSONL traces that kitsoki run writes.

PATH may be a trace file, - for standard input, or an id or substring of a
trace's name under the sessions directory (default .kitsoki/sessions/); the
newest match wins. 'kitsoki trace ls' lists the traces there, newest first.`,
	}
	pf := c.PersistentFlags()
	pf.StringVar(&o.sessionsDir, "sessions-dir", trace.DefaultSessionsDir, "where ids and substrings are looked up")
	c.AddCommand(newTraceVerifyCmd(o), newTraceShowCmd(o), newTraceCallsCmd(o), newTraceStatsCmd(o),
		newTraceToCassetteCmd(o), newTraceExportCmd(o), newTraceLsCmd(o))
	return c
}

// traceInput is an opened PATH argument.
type traceInput struct {
	r    io.Reader
	name string // shown in messages: the path, or "-"
	path string // file path; "" for stdin
	f    *os.File
}

func (in *traceInput) Close() {
	if in.f != nil {
		in.f.Close()
	}
}

// openTrace resolves and opens a PATH argument. When the path was looked up
// by id or substring, "# <path>" goes to stderr.
func (o *traceOpts) openTrace(c *cobra.Command, arg string) (*traceInput, error) {
	p, lookup, err := trace.Resolve(arg, o.sessionsDir)
	if err != nil {
		return nil, usagef("%v", err)
	}
	if p == "-" {
		return &traceInput{r: c.InOrStdin(), name: "-"}, nil
	}
	var f *os.File
	if lookup {
		if f, p, err = o.openListed(c, arg); err != nil {
			return nil, err
		}
	} else if f, err = safefile.Open(p, safefile.Stream); err != nil {
		return nil, usagef("open trace %q: %v", p, err)
	}
	return &traceInput{r: f, name: p, path: p, f: f}, nil
}

// openListed opens the trace the id or substring arg names under the
// sessions directory, found and opened through that directory as
// openSessions opens it once: a trace or directory swapped for a link
// leading out since it was listed is refused.
func (o *traceOpts) openListed(c *cobra.Command, arg string) (*os.File, string, error) {
	sess, err := openSessions(o.sessionsDir)
	if err != nil {
		return nil, "", err
	}
	defer sess.Close()
	tf, err := sess.Find(arg)
	if err != nil {
		return nil, "", usagef("%v", err)
	}
	fmt.Fprintf(c.ErrOrStderr(), "# %s\n", termsafe.Printable(tf.Path)) // a name found under the sessions directory
	f, err := sess.Open(tf)
	if err != nil {
		return nil, "", usagef("open trace %q: %v", tf.Path, err)
	}
	return f, tf.Path, nil
}

// corruptErr turns a read error into the command's exit: a corrupt trace is
// a finding (exit 1), anything else an environment error (exit 2).
func corruptErr(err error) error {
	if ce, ok := errors.AsType[*trace.CorruptError](err); ok {
		return findingf("%s", traceMsg(ce))
	}
	return usagef("%v", err)
}

// traceMsg prints a read-time rejection as path:line: message, escaped
// (the message may quote the trace).
func traceMsg(ce *trace.CorruptError) string {
	if ce.Line > 0 {
		return termsafe.Printable(fmt.Sprintf("%s:%d: %s%s", ce.Name, ce.Line, ce.Msg, otherKindHint(ce)))
	}
	return termsafe.Printable(fmt.Sprintf("%s: %s", ce.Name, ce.Msg))
}

// ANSI colours for timeline categories.
var traceColors = map[trace.Category]string{
	trace.CatTurn:   "\x1b[1m",
	trace.CatState:  "\x1b[34m",
	trace.CatIntent: "\x1b[35m",
	trace.CatWorld:  "\x1b[2m",
	trace.CatHost:   "\x1b[33m",
	trace.CatAgent:  "\x1b[36m",
	trace.CatSay:    "\x1b[32m",
	trace.CatError:  "\x1b[31m",
}

func paint(on bool, cat trace.Category, s string) string {
	code := traceColors[cat]
	if !on || code == "" {
		return s
	}
	return code + s + "\x1b[0m"
}

// openSessions opens the sessions directory dir its traces are listed and
// read through (trace.OpenProjectSessions, against the working directory's
// project root): a sessions directory inside the project that a symlink
// leads out of (a checkout's .kitsoki linked to a home directory's) is
// refused, whether the link's target exists or not, and nothing there is
// listed or read; a directory outside the project named with
// --sessions-dir is the operator's and is read.
func openSessions(dir string) (*trace.Sessions, error) {
	root := ""
	if wd, err := os.Getwd(); err == nil {
		root, _ = story.ProjectRoot(wd)
	}
	s, err := trace.OpenProjectSessions(root, dir)
	if lo, ok := errors.AsType[*trace.LinkOutError](err); ok {
		return nil, usagef("%s: the sessions directory goes through a symlink leading out of the project root %s; no trace outside the root is listed or read: remove the link, pass a trace file by its path, or name the directory itself with --sessions-dir", termsafe.Line(lo.Dir), termsafe.Line(lo.Root))
	}
	if err != nil {
		return nil, usagef("list traces under %s: %s", termsafe.Line(dir), safefile.ErrText(err))
	}
	return s, nil
}
