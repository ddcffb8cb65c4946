package cmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"kitsoki/internal/safefile"
	"kitsoki/internal/termsafe"
	"kitsoki/pkg/trace"
)

type showFlags struct {
	turn    int
	kinds   []string
	follow  bool
	prompts bool
	width   int
}

func newTraceShowCmd(o *traceOpts) *cobra.Command {
	f := &showFlags{}
	c := &cobra.Command{
		Use:   "show PATH",
		Short: "Print a trace as a timeline by turn",
		Long: `Print a trace as a timeline by turn: states entered and exited, intents, effects,
host calls, agent calls (verb, agent, model, duration, tokens, cost, outcome,
fallback, sub-event count) and say lines. Times are UTC.`,
		Example: `  kitsoki trace show .kitsoki/sessions/run.jsonl
  kitsoki trace show triage --turn 2 --prompts
  kitsoki trace show run.jsonl --kind agent. --kind harness.
  kitsoki trace show run.jsonl --follow`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if !c.Flags().Changed("turn") {
				f.turn = -1
			} else if f.turn < 0 {
				return usagef("--turn %d: turns are numbered from 0", f.turn)
			}
			if f.width < 1 {
				return usagef("--width %d: must be at least 1 (the number of characters a value is clipped to)", f.width)
			}
			return showTrace(c, o, f, args[0])
		},
	}
	fl := c.Flags()
	fl.IntVar(&f.turn, "turn", 0, "show only turn `N`")
	fl.StringSliceVar(&f.kinds, "kind", nil, "show only events whose kind starts with `PREFIX` (repeatable)")
	fl.BoolVar(&f.follow, "follow", false, "keep reading as the trace grows (Ctrl-C to stop)")
	fl.BoolVar(&f.prompts, "prompts", false, "print agent prompts and responses, inline or from agent-prompts/ sidecars")
	fl.IntVar(&f.width, "width", 100, "clip values to `N` characters")
	return c
}

func showTrace(c *cobra.Command, o *traceOpts, f *showFlags, arg string) error {
	in, err := o.openTrace(c, arg)
	if err != nil {
		return err
	}
	defer in.Close()
	color, err := useColor(c, c.OutOrStdout())
	if err != nil {
		return err
	}
	src := in.r
	if f.follow {
		if in.f == nil {
			return usagef("--follow needs a trace file, not standard input")
		}
		ctx, cancel := signal.NotifyContext(c.Context(), os.Interrupt) // Ctrl-C ends --follow
		defer cancel()
		src = trace.Follow(ctx, in.f, 200*time.Millisecond)
	}
	out := bufio.NewWriter(c.OutOrStdout())
	defer out.Flush()
	// Path: large values come back from their blob files, as previews of
	// the width values are clipped to (read once, a few bytes each).
	rd := trace.NewReader(src, trace.ReadOptions{Name: in.name, Path: in.path, BlobPreview: f.width})
	h, err := rd.Header()
	if err != nil {
		return corruptErr(err)
	}
	fmt.Fprintln(out, paint(color, trace.CatWorld, showHeader(in.name, h)))
	tl := &trace.Timeline{MaxValue: f.width}
	lastTurn, shown := 0, false
	var turns turnRange
	sidecars := shownSidecars{}
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			out.Flush()
			return corruptErr(err)
		}
		ln, ok := tl.Feed(&ev)
		turns.observe(ev.Turn, f.turn)
		if (f.turn >= 0 && ev.Turn != f.turn) || !kindSelected(f.kinds, ev.Kind) {
			continue
		}
		if !ok {
			if len(f.kinds) == 0 {
				continue // a sub-event, counted on its call's result line
			}
			ln = trace.Line{Turn: ev.Turn, TS: ev.TS, Kind: ev.Kind, Category: trace.CatOther, Label: lineMessage(ev.Kind), Text: lineMessage(string(rawPayload(ev.Payload)))}
		}
		if !shown || ev.Turn != lastTurn {
			fmt.Fprintln(out, paint(color, trace.CatTurn, fmt.Sprintf("── turn %d %s", ev.Turn, strings.Repeat("─", 40))))
			lastTurn, shown = ev.Turn, true
		}
		fmt.Fprintf(out, "%s  %-6s  %s\n", ev.TS.UTC().Format("15:04:05.000"), paint(color, ln.Category, ln.Label), paint(color, textCategory(ln.Category), ln.Text))
		if f.prompts {
			sidecars.print(out, in.path, &ev, ln.Call)
		}
		if f.follow {
			out.Flush()
		}
	}
	if f.turn >= 0 && !turns.seen && !f.follow {
		out.Flush()
		return turns.missing(f.turn, in.name)
	}
	if !f.follow {
		for cl := range tl.Open() {
			fmt.Fprintf(out, "%s  %-6s  %s\n", "            ", paint(color, trace.CatError, "open"),
				fmt.Sprintf("agent call %s (%s, turn %d) has no result in the trace", lineMessage(cl.CallID), lineMessage(cl.Verb), cl.Turn))
		}
	}
	return nil
}

// showHeader is the trace's first line: its name, app and time. The
// header's fields are the trace writer's (anyone's): one escaped line.
func showHeader(name string, h trace.Header) string {
	head := "# " + lineMessage(name)
	if h.AppID != "" {
		head += "  app " + lineMessage(h.AppID)
	}
	if !h.WrittenAt.IsZero() {
		head += "  written " + h.WrittenAt.UTC().Format(time.RFC3339)
	}
	return head
}

// turnRange is the turns a trace's events ran, and whether --turn's was
// one of them.
type turnRange struct {
	min, max  int
	any, seen bool
}

func (r *turnRange) observe(turn, want int) {
	if !r.any {
		r.min, r.max = turn, turn
	}
	r.min, r.max, r.any = min(r.min, turn), max(r.max, turn), true
	r.seen = r.seen || turn == want
}

// missing is the usage error for a --turn the trace does not have.
func (r *turnRange) missing(turn int, name string) error {
	if !r.any {
		return usagef("--turn %d: %s has no events", turn, name)
	}
	return usagef("--turn %d: %s has no turn %d (its turns run from %d to %d)", turn, name, turn, r.min, r.max)
}

// textCategory colours only the texts that carry meaning on their own.
func textCategory(c trace.Category) trace.Category {
	switch c {
	case trace.CatSay, trace.CatError:
		return c
	}
	return ""
}

func kindSelected(prefixes []string, kind string) bool {
	return len(prefixes) == 0 || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(kind, p) })
}

func rawPayload(p any) []byte {
	if raw, ok := p.(json.RawMessage); ok {
		return raw
	}
	return nil
}

// shownSidecars remembers the sidecar files trace show --prompts printed,
// by the call that printed each: a sidecar is read and printed once per
// command, and a later call naming it points back (a small trace whose
// calls all name one big prompt would otherwise print it once per call).
type shownSidecars map[string]string

// print prints, under an agent line, the prompt (start) or the response
// (complete), inline or from its sidecar.
func (shown shownSidecars) print(w io.Writer, tracePath string, ev *trace.Event, call *trace.Call) {
	var text, ref, label string
	switch {
	case ev.Kind == "agent.call.start":
		var p struct {
			Prompt     string `json:"prompt"`
			PromptFile string `json:"prompt_file"`
		}
		_ = json.Unmarshal(rawPayload(ev.Payload), &p)
		text, ref, label = p.Prompt, p.PromptFile, "prompt"
	case call != nil && call.Outcome == trace.OutcomeOK:
		text, ref, label = string(call.Response), call.ResponseFile, "response"
	default:
		return
	}
	if text == "" && ref != "" {
		if by, ok := shown[ref]; ok {
			fmt.Fprintf(w, "              %s (%s): as printed above for %s\n", label, termsafe.Line(ref), termsafe.Line(by))
			return
		}
		if tracePath == "" {
			text = fmt.Sprintf("(in %s; read the trace from a file to see it)", ref)
		} else if b, err := trace.ReadSidecar(tracePath, ref, safefile.Cassette); err != nil {
			text = fmt.Sprintf("(cannot read %v)", err)
		} else {
			text = string(b)
			label += " (" + ref + ")"
			shown[ref] = "call " + ev.CallID + "'s " + strings.Fields(label)[0]
		}
	}
	if text == "" {
		return
	}
	fmt.Fprintf(w, "              %s:\n", termsafe.Line(label))
	for l := range strings.SplitSeq(strings.TrimRight(termsafe.Printable(text), "\n"), "\n") {
		fmt.Fprintf(w, "              │ %s\n", l)
	}
}
