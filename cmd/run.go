package cmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"kitsoki/internal/human"
	"kitsoki/internal/termsafe"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/agent/localllm"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
	"kitsoki/pkg/trace"
)

func init() { register("run", newRunCmd) }

// intentFlag and slotFlag collect --intent/--slot in command-line order:
// each --slot belongs to the --intent before it.
type intentFlag struct{ inputs *[]engine.Input }

func (f intentFlag) String() string { return "" }
func (f intentFlag) Type() string   { return "NAME" }
func (f intentFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		return errors.New("empty intent name")
	}
	*f.inputs = append(*f.inputs, engine.Input{Intent: s, Slots: map[string]any{}})
	return nil
}

type slotFlag struct{ inputs *[]engine.Input }

func (f slotFlag) String() string { return "" }
func (f slotFlag) Type() string   { return "k=v" }
func (f slotFlag) Set(s string) error {
	in := *f.inputs
	if len(in) == 0 {
		return fmt.Errorf("--slot %q must follow the --intent it belongs to", s)
	}
	k, v, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("--slot %q: expected key=value", s)
	}
	in[len(in)-1].Slots[strings.TrimSpace(k)] = v
	return nil
}

type runFlags struct {
	root         string // --root
	inputs       []engine.Input
	world        []string
	worldFile    string
	cassette     string
	hostCassette string
	tracePath    string
	traceMaxMiB  int64 // --trace-max-mib
	jsonOut      bool
	timeout      time.Duration
	callTimeout  time.Duration
	profile      string
	strict       bool
	saveFixture  string // --save-fixture (run_save.go)
	force        bool

	spinner *callSpinner // nil off a terminal
}

func newRunCmd() *cobra.Command {
	f := &runFlags{}
	c := &cobra.Command{
		Use:     "run STORY [--intent NAME [--slot k=v]...]...",
		Short:   "Run a story headless, one shot, writing a JSONL trace",
		Example: "  kitsoki run examples/ci-triage\n  kitsoki run examples/pr-review --cassette examples/pr-review/cassettes/review.cassette.yaml\n  kitsoki run examples/incident-router --world \"alert=sev 4: p99 latency\" --json\n  kitsoki run my-story --intent approve --slot reason=ok --timeout 5m",
		Long: `Run executes a story (a directory or its app.yaml) from its root state. Agent
calls go through the story's agent_plugins (or a recorded --cassette); host.run
runs commands. Each --intent (with the --slot values after it) is consumed in
order whenever the machine rests. The run ends at an exit or terminal state,
or when the machine rests with no input left.

On a terminal a spinner with the elapsed time shows the call in progress
(erased when it returns); nothing of it reaches a pipe or a log.

--json prints one object instead of the log, also when the run cannot
start: {"schema": 1, "outcome", "status", "exit", "state", "world", "calls",
"trace", "session"}, where outcome is exit, terminal, failed or rested (or
invalid with "diagnostics", or usage) and each calls[] entry has an "error"
object {"kind", "detail"} when it failed. Its JSON Schema: kitsoki schema run.

Exit status: 0 the run reached an exit or terminal state, 1 the run failed or
rested before the end (or the story is invalid), 2 usage or environment error,
130 interrupted by Ctrl-C or 143 by SIGTERM (the trace ends on a whole line; no
fixture is saved).`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			f.spinner = newCallSpinner(c.ErrOrStderr())
			defer f.spinner.close()
			err := runStory(c.Context(), f.spinner.guard(c.OutOrStdout()), f.spinner.guard(c.ErrOrStderr()), args[0], f)
			if f.jsonOut {
				return runJSONError(c.OutOrStdout(), err)
			}
			return err
		},
	}
	fl := c.Flags()
	fl.Var(intentFlag{&f.inputs}, "intent", "intent to fire when the machine rests (repeatable, in order)")
	fl.Var(slotFlag{&f.inputs}, "slot", "slot value k=v for the preceding --intent (repeatable)")
	fl.StringArrayVar(&f.world, "world", nil, "world override key=value, typed by the world: declaration (repeatable)")
	fl.StringVar(&f.worldFile, "world-file", "", "YAML file of world overrides")
	fl.StringVar(&f.cassette, "cassette", "", "replay every agent call from this recorded cassette (no plugin is started)")
	fl.StringVar(&f.hostCassette, "host-cassette", "", "answer host calls (any handler with episodes) from this host cassette")
	fl.StringVar(&f.tracePath, "trace", "", "trace file (default .kitsoki/sessions/<session>.jsonl)")
	addTraceBoundFlag(c, &f.traceMaxMiB)
	fl.DurationVar(&f.timeout, "timeout", 0, "stop the run (plugins and commands included) after this long, e.g. 10m; 0 = no limit")
	fl.DurationVar(&f.callTimeout, "call-timeout", 0, "hard timeout of each agent call without its own timeout: (default 10m); a slow call fails with deadline_exceeded and takes on_error")
	addRootFlag(c, &f.root)
	fl.StringVar(&f.profile, "profile", "", "operator plugin profile, applied over the .kitsoki/plugins.yaml found upward from the story; see kitsoki plugins")
	fl.BoolVar(&f.strict, "strict", false, strictUsage)
	addSaveFlags(c, f)
	fl.BoolVar(&f.jsonOut, "json", false, "print one JSON object (schema 1: outcome, status, exit, state, world, calls, trace, session; see kitsoki schema run) instead of the log")
	return c
}

func runStory(ctx context.Context, stdout, stderr io.Writer, path string, f *runFlags) error {
	if err := refuseInSandbox("run"); err != nil {
		return err
	}
	if err := checkRunFlags(path, f); err != nil {
		return err
	}
	ld, err := loadRunStory(stderr, path, f.root)
	if err != nil {
		return err
	}
	if err := checkSave(f, ld); err != nil {
		return err
	}
	hc, plan, err := resolveRunPlan(ctx, stderr, ld, f)
	if err != nil {
		return err
	}
	// Host handlers: the built-ins, then the providers the assembly enables
	// (.kitsoki/plugins/), before the compile checks every call has one.
	hostReg, closeHosts, hostWarns, err := plan.Assembly.HostRegistry(ld.Story, host.Options{}, localllm.EmbedderConfig{})
	if err != nil {
		return usagef("host handlers: %v", err)
	}
	plan.AddHosts(hostReg)
	defer closeHosts()
	for _, w := range hostWarns {
		warnDiag(stderr, diag.Diagnostic{File: w.File, Line: w.Line, Col: w.Col, Severity: diag.Warning, Message: w.Message})
	}
	if err := compileRunStory(stderr, path, ld, hc, hostReg); err != nil {
		return err
	}
	st, m := ld.Story, ld.Machine
	world, cas, err := runInputs(m, f)
	if err != nil {
		return err
	}
	if cas != nil {
		warnDelays(stderr, "--cassette", f.cassette, cas.UnparsedDelays())
	}

	session, tracePath, tw, err := openRunTrace(st.App.ID, path, f.tracePath, f.traceMaxMiB)
	if err != nil {
		return err
	}
	defer tw.Close()
	sink, save := startSave(f, f.spinner.watch(compose.TraceSink(tw)), world)

	rt, err := plan.Build(compose.BuildOptions{Cassette: cas, Sink: sink, ClaudeSubmit: claudeSubmitCommand(), CallTimeout: f.callTimeout})
	if err != nil {
		return usagef("%v", err)
	}
	defer rt.Close()
	chain, reg := rt.Chain, rt.Agents

	ctx, stop := runContext(ctx, f.timeout)
	defer stop()

	var notes func(engine.Note)
	if !f.jsonOut {
		fmt.Fprintf(stdout, "run %s (%s)  session %s\n", termsafe.Printable(st.App.ID), termsafe.Printable(path), session)
		notes = humanNotes(stdout)
	}
	_ = chain.RunStart(ctx, map[string]any{"story": path, "app_id": st.App.ID, "session_id": session}, hookEmit(sink, 0))
	res := engine.RunSession(ctx, m, engine.SessionOptions{Options: engine.Options{
		SessionID: session, World: world, Inputs: f.inputs,
		Agents: rt.Caller(), HostReplay: hc, HostHooks: chain, Sink: sink, Notes: notes, Strict: f.strict,
	}, Bootstrap: true, Hosts: hostReg})
	end := map[string]any{"outcome": res.Outcome, "state": res.State}
	if res.Err != nil {
		end["error"] = res.Err.Error()
	}
	_ = chain.RunEnd(context.WithoutCancel(ctx), end, hookEmit(sink, res.Turns))
	// Stop plugins and hook processes before the trace closes, whatever happened.
	closeErr, _ := rt.Close()
	if err := tw.Close(); err != nil && res.Err == nil {
		res.Outcome, res.Err = engine.OutcomeFailed, err // "trace: close …"
	}
	if closeErr != nil {
		fmt.Fprintf(stderr, "kitsoki: warning: stopping agent plugins: %s\n", termsafe.Printable(reg.Redact(closeErr.Error())))
	}
	if err := save.finish(ctx, saveOut(stdout, stderr, f), ld, f, res); err != nil {
		return err
	}
	return finishRun(stdout, stderr, res, f, tracePath, session, interruptedBy(ctx))
}

// checkRunFlags checks the flags that need no story, and the story
// argument.
func checkRunFlags(path string, f *runFlags) error {
	if f.timeout < 0 {
		return usagef("--timeout %s: must not be negative", f.timeout)
	}
	if err := checkCallTimeout(f.callTimeout); err != nil {
		return err
	}
	if _, err := traceOptions(f.traceMaxMiB); err != nil {
		return err
	}
	return checkStoryArg(path)
}

// loadRunStory loads the story (not compiled yet: the host handlers come
// first), printing the loader's diagnostics when it does not load.
func loadRunStory(stderr io.Writer, path, root string) (*compose.Loaded, error) {
	ld, err := compose.Load(path, compose.LoadOptions{NoCompile: true, Story: story.Options{Root: root}})
	if msg, ds, ok := notLoaded(stderr, path, err); ok {
		return nil, invalidStory(ds, msg)
	} else if err != nil {
		return nil, findingf("%s: %v", path, err)
	}
	return ld, nil
}

// resolveRunPlan loads --host-cassette and resolves the plugin assembly
// before anything is written.
func resolveRunPlan(ctx context.Context, stderr io.Writer, ld *compose.Loaded, f *runFlags) (*compose.HostCassette, *compose.Plan, error) {
	var hc *compose.HostCassette
	if f.hostCassette != "" {
		var err error
		if hc, err = compose.LoadHostCassette(f.hostCassette); err != nil {
			return nil, nil, usagef("--host-cassette: %v", err)
		}
		if aliases := hc.AliasHandlers(); len(aliases) > 0 {
			fmt.Fprintf(stderr, "kitsoki: warning: --host-cassette %s: episodes naming %s answer no call (agent calls are host.agent.<verb>, and --host-cassette serves host handlers only); replay them with --cassette\n",
				termsafe.Printable(f.hostCassette), termsafe.Printable(strings.Join(aliases, ", ")))
		}
		warnDelays(stderr, "--host-cassette", f.hostCassette, hc.UnparsedDelays())
	}
	plan, err := resolvePlan(ld, compose.ResolveOptions{Profile: f.profile, Hosts: addedHosts(ctx)})
	if err != nil {
		return nil, nil, err
	}
	for _, d := range plan.Warnings() {
		warnDiag(stderr, d)
	}
	return hc, plan, nil
}

// warnDelays prints a cassette's delays that are no duration
// (agent.Cassette.UnparsedDelays), named by the flag that gave it.
func warnDelays(stderr io.Writer, flag, path string, delays []string) {
	for _, d := range delays {
		fmt.Fprintf(stderr, "kitsoki: warning: %s %s: %s\n", flag, termsafe.Printable(path), termsafe.Printable(d))
	}
}

// compileRunStory compiles the loaded story against the host handlers and
// prints the lint and machine warnings.
func compileRunStory(stderr io.Writer, path string, ld *compose.Loaded, hc *compose.HostCassette, hostReg *host.Registry) error {
	engine.PrepareHosts(hostReg)
	if ld.Compile(engine.CompileOptions{HostReplay: hc, Hosts: hostReg}); ld.CompileErr != nil {
		return findingf("%s: %v", path, ld.CompileErr)
	}
	for _, d := range ld.LintWarnings {
		warnDiag(stderr, d)
	}
	for _, w := range ld.Machine.Warnings {
		fmt.Fprintf(stderr, "kitsoki: warning: %s\n", termsafe.Printable(w.String()))
	}
	return nil
}

// runInputs builds the initial world (--world-file, then --world), types
// the --slot values and loads --cassette.
func runInputs(m *engine.Machine, f *runFlags) (engine.World, *agent.Cassette, error) {
	var fileWorld *engine.WorldFile
	if f.worldFile != "" {
		values, err := engine.LoadWorldFile(f.worldFile)
		if err != nil {
			return nil, nil, usagef("%v", err)
		}
		fileWorld = &engine.WorldFile{Path: f.worldFile, Values: values}
	}
	world, err := engine.InitWorld(m.World, fileWorld, f.world)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	for i := range f.inputs {
		if err := m.TypeSlots(&f.inputs[i], f.strict); err != nil {
			return nil, nil, usagef("%v", err)
		}
	}
	var cas *agent.Cassette
	if f.cassette != "" {
		if cas, err = agent.LoadCassette(f.cassette); err != nil {
			return nil, nil, usagef("--cassette: %v", err)
		}
	}
	return world, cas, nil
}

// openRunTrace picks the session id and creates the trace (--trace, or
// .kitsoki/sessions/<session>.jsonl).
func openRunTrace(appID, path, flagPath string, maxMiB int64) (session, tracePath string, tw *trace.Writer, err error) {
	opt, err := traceOptions(maxMiB)
	if err != nil {
		return "", "", nil, err
	}
	session = trace.NewSessionID(appID, time.Now())
	tracePath = cmp.Or(flagPath, filepath.Join(trace.DefaultSessionsDir, session+".jsonl"))
	if err := checkOutInside("--trace", tracePath); err != nil {
		return "", "", nil, err
	}
	if err := os.MkdirAll(filepath.Dir(tracePath), 0o755); err != nil {
		return "", "", nil, usagef("--trace: %v", err)
	}
	tw, err = trace.CreateWith(tracePath, trace.Header{AppID: appID, Story: path, Generator: "kitsoki " + version}, opt)
	if err != nil {
		return "", "", nil, usagef("--trace: %s", strings.TrimPrefix(err.Error(), "trace: "))
	}
	return session, tracePath, tw, nil
}

// runContext ends the run on SIGINT/SIGTERM or after timeout (0 = none);
// a second Ctrl-C kills kitsoki.
func runContext(ctx context.Context, timeout time.Duration) (context.Context, func()) {
	ctx, stop := stopContext(ctx)
	cancel := context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	go func() { <-ctx.Done(); stop() }()
	return ctx, func() { cancel(); stop() }
}

// finishRun reports the run's result (the log's last lines or the --json
// object) and returns its exit status.
func finishRun(stdout, stderr io.Writer, res *engine.Result, f *runFlags, tracePath, session string, stopped *interruption) error {
	status, msg := runStatus(res, f.timeout, stopped)
	if status == exitOK && len(res.Bugs) > 0 {
		status, msg = exitFinding, fmt.Sprintf("the run ended, but %d handler call(s) panicked, a kitsoki bug: %s", len(res.Bugs), res.Bugs[0])
	}
	if stopped != nil && status == stopped.code() && f.saveFixture != "" {
		msg += "; no fixture saved"
	}
	if f.jsonOut {
		if err := writeRunJSON(stdout, res, status, msg, tracePath, session); err != nil {
			return err
		}
	} else {
		switch res.Outcome {
		case engine.OutcomeExit:
			fmt.Fprintf(stdout, "exit %s\n", termsafe.Printable(res.Exit))
		case engine.OutcomeTerminal:
			fmt.Fprintf(stdout, "terminal %s\n", termsafe.Printable(res.State))
		}
		fmt.Fprintf(stdout, "trace: %s\n", termsafe.Printable(tracePath))
		if res.Unconsumed > 0 && res.Finished() {
			fmt.Fprintf(stderr, "kitsoki: warning: %d --intent input(s) not consumed: the run ended at %s first\n", res.Unconsumed, termsafe.Printable(res.State))
		}
	}
	if status != exitOK {
		if f.jsonOut {
			return silentExit(status)
		}
		return &exitError{code: status, err: errors.New(msg)}
	}
	return nil
}

// runStatus is the exit status of a run's outcome and, when it is not
// exitOK, the message saying why. A run a signal stopped (stopped) ends
// with 128 + its number and names it.
func runStatus(res *engine.Result, timeout time.Duration, stopped *interruption) (int, string) {
	switch res.Outcome {
	case engine.OutcomeFailed:
		msg := res.Err.Error()
		if stopped != nil {
			if cut, ok := strings.CutSuffix(msg, context.Canceled.Error()); ok {
				return stopped.code(), cut + stopped.Error()
			}
			return stopped.code(), msg + " (" + stopped.Error() + ")"
		}
		if timeout > 0 && errors.Is(res.Err, context.DeadlineExceeded) {
			msg += fmt.Sprintf(" (--timeout %s reached)", timeout)
		}
		return exitFinding, msg
	case engine.OutcomeRested:
		if len(res.Available) == 0 {
			return exitFinding, fmt.Sprintf("the run rested in state %q, which takes no intent, so no --intent can move it on; mark it terminal: true if the run should end there",
				res.State)
		}
		return exitFinding, fmt.Sprintf("the run rested in state %q with no input left (it handles: %s); pass --intent NAME to continue",
			res.State, strings.Join(res.Available, ", "))
	}
	return exitOK, ""
}

// hookEmit writes hook.* outcome events of run/start and run/end into the
// trace at turn.
func hookEmit(sink engine.Sink, turn int64) func(kind string, payload any) error {
	return func(kind string, payload any) error {
		return sink.Emit(engine.Event{Turn: turn, Kind: kind, Payload: payload})
	}
}

// humanNotes prints the short human log, every story or agent text through
// trace.Printable.
func humanNotes(w io.Writer) func(engine.Note) {
	return func(n engine.Note) {
		n.State, n.Text, n.Error = printableMessage(n.State), printableMessage(n.Text), printableMessage(n.Error)
		switch n.Kind {
		case "enter":
			fmt.Fprintf(w, "→ %s\n", n.State)
		case "say":
			fmt.Fprintf(w, "  say: %s\n", oneLine(n.Text))
		case "agent", "host":
			if n.Error != "" {
				fmt.Fprintf(w, "  %s  failed after %s: %s\n", n.Text, human.Duration(n.Duration), errorLines(n.Error))
			} else {
				fmt.Fprintf(w, "  %s  (%s)\n", n.Text, human.Duration(n.Duration))
			}
		case "intent":
			fmt.Fprintf(w, "  intent %s\n", n.Text)
		case "emit":
			fmt.Fprintf(w, "  emit %s\n", n.Text)
		case "on_error", "timeout", "decider":
			fmt.Fprintf(w, "  %s\n", noteLine(n))
		case "job":
			if n.Error != "" {
				fmt.Fprintf(w, "  %s: %s\n", n.Text, errorLines(n.Error))
			} else {
				fmt.Fprintf(w, "  %s\n", n.Text)
			}
		}
	}
}

// noteLine is an on_error, timeout or decider note as one line: its text
// and, unless it is a move (n.To: an on_error redirect, whose call's
// failure is printed above it), its error; a note with only an error (a
// timeout that never arms or fires) is that error.
func noteLine(n engine.Note) string {
	switch {
	case n.Error == "" || n.To != "":
		return n.Text
	case n.Text == "":
		return oneLine(n.Error)
	}
	return n.Text + ": " + oneLine(n.Error)
}

// errorLinesKept is how many of an error's continuation lines the log
// shows: the last ones, where a plugin's or command's stderr ends with
// what went wrong.
const errorLinesKept = 12

// errorLines is a failed call's error for the log: its first line, then
// its continuation lines (a plugin's stderr, a command's output) indented
// under it with "| ", the last errorLinesKept of them, so the cause is in
// the log rather than behind an ellipsis. The trace keeps all of it.
func errorLines(s string) string {
	s = strings.TrimSpace(s)
	first, rest, ok := strings.Cut(s, "\n")
	if !ok {
		return s
	}
	lines := strings.Split(strings.TrimRight(rest, "\n"), "\n")
	var b strings.Builder
	b.WriteString(strings.TrimRight(first, " "))
	if len(lines) > errorLinesKept {
		fmt.Fprintf(&b, "\n      | … %d earlier lines in the trace (kitsoki trace show)", len(lines)-errorLinesKept)
		lines = lines[len(lines)-errorLinesKept:]
	}
	for _, l := range lines {
		b.WriteString("\n      | ")
		b.WriteString(strings.TrimRight(l, " \r"))
	}
	return b.String()
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return s
}
