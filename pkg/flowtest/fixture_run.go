package flowtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/flosch/pongo2/v6"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/lazyre"
	"kitsoki/internal/recost"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
	"kitsoki/pkg/trace"
	kview "kitsoki/pkg/view"
)

// The flow rig's clock starts at the Unix epoch, as upstream's.
var epoch = time.Unix(0, 0).UTC()

type fixtureRun struct {
	r      *Runner
	fx     *Fixture
	ld     *compose.Loaded
	m      *engine.Machine
	res    *Result
	legacy bool
	plan   *compose.Plan // the story's plugin assembly (orchestrated path)
	sbx    sandboxLog    // real handlers refused under --sandbox

	sess      *engine.Session
	first     *engine.Session       // the session run() closes; restarts close their own
	sopts     engine.SessionOptions // how the session was started (legacy restarts)
	hc        *compose.HostCassette
	rec       *Recording
	star      host.StarlarkOptions
	hadErrors bool
	allEvents []event
	retained  int    // bytes of events and views the turns keep (retained.go)
	wd        string // where real handlers write (workDir)
}

// named resolves p, a file the fixture names under key, inside the
// project root (confine.go); false, the fixture failed at key, when it leaves it.
func (fr *fixtureRun) named(key, p string) (string, bool) {
	full, err := fr.resolve(key, p)
	if err != nil {
		fr.fatal(fr.fx.at(key), "%v", err)
		return "", false
	}
	return full, true
}

func (fr *fixtureRun) resolve(key, p string) (string, error) {
	var st *story.Story
	if fr.ld != nil {
		st = fr.ld.Story
	}
	return resolveNamed(namedRoot(st, fr.fx.File), fr.fx.File, key, p)
}

func (fr *fixtureRun) fatal(p Pos, format string, a ...any) {
	fr.res.Fatal = &Failure{Turn: -1, Pos: p, Message: fmt.Sprintf(format, a...)}
	fr.res.Flow.Passed = false
}

// unsupported fails the fixture (exit 1, not 2) in the [session]
// pseudo-turn: a construct the engine does not run, or a session that cannot start.
func (fr *fixtureRun) unsupported(msgs []Failure) {
	fr.res.Flow.Turns = append(fr.res.Flow.Turns, &TurnResult{TurnIndex: -1, Failures: messages(msgs)})
	fr.res.Failures = append(fr.res.Failures, msgs...)
	fr.res.Flow.Passed = false
}

// messages are the failures' messages (nil: none).
func messages(fs []Failure) []string {
	if len(fs) == 0 {
		return nil
	}
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Message
	}
	return out
}

func compileFailures(err error, at Pos) []Failure {
	if ce, ok := errors.AsType[*engine.CompileError](err); ok {
		out := make([]Failure, 0, len(ce.Problems))
		for _, p := range ce.Problems {
			out = append(out, Failure{Turn: -1, Pos: p.Pos, Message: "not supported yet: " + p.Message})
		}
		return out
	}
	return []Failure{{Turn: -1, Pos: at, Message: "not supported yet: " + err.Error()}}
}

func (fr *fixtureRun) run(ctx context.Context) {
	fx := fr.fx
	fr.legacy = !fx.Orchestrated()
	if !fr.legacy {
		plan, err := fr.r.Plan(fx.Story)
		if err != nil {
			fr.fatal(Pos{File: fx.Story}, "plugin profile: %v", err)
			return
		}
		fr.plan = plan
	}
	ld, ok := fr.machine()
	if !ok || !fr.loadRecording() || !fr.loadCassettes() {
		return
	}
	reg := fr.registry(fx)
	sink, closeTrace, ok := fr.traceSink()
	if !ok {
		return
	}
	defer closeTrace()
	agents, closeAgents, err := fr.agents(sink)
	if err != nil {
		fr.fatal(fx.at("host_cassette"), "%v", err)
		return
	}
	defer closeAgents()
	workDir, removeWorkDir, ok := fr.workDir()
	if !ok {
		return
	}
	defer removeWorkDir()
	fr.wd = workDir
	world, ok := fr.initialWorld()
	if !ok {
		return
	}
	if (fr.legacy || fr.m.Root == "") && fx.InitialState == "" || strings.Contains(fx.InitialState, "/") {
		// upstream's legacy path, and a story with root: "", start in the
		// state ""; "c/c1" names no state upstream (stranded.go)
		if !fr.legacy {
			seedStranded(world, fr.sessionID())
		}
		fr.stranded(world)
		return
	}
	o := fr.sessionOptions(ld, reg, world, agents, sink, workDir)
	sess, err := engine.Start(ctx, fr.m, o)
	if sess != nil {
		defer sess.Close()
	}
	if err != nil && fr.strandedState(err) {
		fr.stranded(world)
		return
	}
	if err != nil {
		fr.unsupported([]Failure{{Turn: -1, Pos: fx.at("initial_state"), Message: fmt.Sprintf("initial_state %q: the session cannot start: %v", fx.InitialState, err)}})
		return
	}
	fr.sess, fr.first, fr.sopts = sess, sess, o
	defer func() {
		if fr.sess != fr.first {
			fr.sess.Close()
		}
	}()
	if fr.play(func(t *Turn) (*TurnResult, bool) { return fr.turn(ctx, t) }, fr.r.opts.observe) {
		fr.finish(fr.sess)
	}
}

// machine is the fixture's story, rebound to its host_bindings; false
// when the story's compilation fails the fixture.
func (fr *fixtureRun) machine() (*compose.Loaded, bool) {
	fx, ld := fr.fx, fr.ld
	if len(fx.HostBindings) > 0 {
		ld = rebind(ld, fx.HostBindings)
	}
	if ld.CompileErr != nil {
		fr.unsupported(compileFailures(ld.CompileErr, fx.Pos))
		return nil, false
	}
	fr.m = ld.Machine
	return ld, true
}

// loadRecording loads the recording input: turns read (the fixture's, or
// --recording), relative to the fixture's directory (flow-format.md §6.6).
func (fr *fixtureRun) loadRecording() bool {
	fx := fr.fx
	p := fr.r.opts.Recording
	if p == "" && fx.Recording == "" {
		return true
	}
	if !fr.legacy && !slices.ContainsFunc(fx.Turns, func(t *Turn) bool { return t.Intent == nil && t.HasInput }) {
		// upstream opens an unread recording on its legacy path only
		return true
	}
	full := fr.fx.rel(p) // --recording: the operator's choice
	if p == "" {
		p = fx.Recording
		var in bool
		if full, in = fr.named("recording", p); !in {
			return false
		}
	}
	rec, err := loadRecording(full)
	if err != nil {
		fr.recordingProblem(fx.at("recording"), "%v", err)
		if fr.res.Flow.Skipped {
			fr.res.Flow.Turns = nil
		}
		return false
	}
	fr.rec = rec
	return true
}

// loadCassettes loads the fixture's host and Starlark cassettes; on the
// legacy path, where no host runs, upstream reads none, but each path must
// still stay inside the project root.
func (fr *fixtureRun) loadCassettes() bool {
	fx := fr.fx
	ok := true
	if fr.legacy {
		for _, nf := range fx.cassettes() {
			if nf.path == "" {
				continue
			}
			if _, in := fr.named(nf.key, nf.path); !in {
				return false
			}
		}
		return true
	}
	if fx.HostCassette != "" {
		fr.hc, ok = loadNamed(fr, "host_cassette", fx.HostCassette, compose.LoadFlowHostCassette)
	}
	if ok && fx.StarlarkHTTPCassette != "" {
		fr.star.HTTPCassette, ok = loadNamed(fr, "starlark_http_cassette", fx.StarlarkHTTPCassette, readParsed(host.ParseHTTPCassette))
	}
	if ok && fx.StarlarkInspectCassette != "" {
		fr.star.Inspect, ok = loadNamed(fr, "starlark_inspect_cassette", fx.StarlarkInspectCassette, readParsed(host.ParseInspectCassette))
	}
	return ok
}

// readParsed is a loader that reads a file within the size limit and parses it.
func readParsed[T any](parse func(string, []byte) (T, error)) func(string) (T, error) {
	return func(path string) (T, error) {
		data, err := readBounded(path)
		if err != nil {
			var zero T
			return zero, err
		}
		return parse(path, data)
	}
}

// loadNamed loads p, named under key, inside the project root; false,
// the fixture failed at key, when it cannot.
func loadNamed[T any](fr *fixtureRun, key, p string, load func(string) (T, error)) (T, bool) {
	var v T
	full, in := fr.named(key, p)
	if !in {
		return v, false
	}
	v, err := load(full)
	if err != nil {
		fr.fatal(fr.fx.at(key), "%s: %v", key, err)
		return v, false
	}
	return v, true
}

// traceSink is the session's trace file under --trace-dir, else a sink that drops events.
func (fr *fixtureRun) traceSink() (sink engine.Sink, closeTrace func(), ok bool) {
	fx := fr.fx
	sink = engine.SinkFunc(func(engine.Event) error { return nil })
	dir := fr.r.opts.TraceDir
	if dir == "" {
		return sink, func() {}, true
	}
	path := filepath.Join(dir, traceName(fx)+".jsonl")
	// a test trace is not a durable record: never fsynced
	tw, err := trace.CreateWith(path, trace.Header{AppID: fr.m.AppID, Story: fx.Story, Generator: fr.r.opts.Generator}, trace.Options{Sync: trace.SyncNever})
	if err != nil {
		fr.fatal(fx.Pos, "--trace-dir: %v", err)
		return nil, nil, false
	}
	fr.res.Trace = path
	return compose.TraceSink(tw), func() { tw.Close() }, true
}

// workDir is where real handlers write: --workdir, or a fresh temporary
// directory per fixture (so parallel fixtures share nothing) that remove deletes.
func (fr *fixtureRun) workDir() (dir string, remove func(), ok bool) {
	if dir := fr.r.opts.WorkDir; dir != "" {
		return dir, func() {}, true
	}
	tmp, err := os.MkdirTemp("", "kitsoki-flow-")
	if err != nil {
		fr.fatal(fr.fx.Pos, "working directory: %v", err)
		return "", nil, false
	}
	return tmp, func() { _ = os.RemoveAll(tmp) }, true
}

// initialWorld is the story's world, the rig's seeded keys and the fixture's initial_world.
func (fr *fixtureRun) initialWorld() (map[string]any, bool) {
	world, err := engine.InitWorld(fr.m.World, nil, nil)
	if err != nil {
		fr.fatal(fr.fx.Pos, "%v", err)
		return nil, false
	}
	seedRig(world)
	for _, kv := range fr.fx.InitialWorld {
		world[kv.Key] = fr.legacyWhole(jsonvalue.CopyNilAsEmpty(kv.Value))
	}
	return world, true
}

func (fr *fixtureRun) sessionOptions(ld *compose.Loaded, reg *host.Registry, world map[string]any, agents engine.AgentCaller, sink engine.Sink, workDir string) engine.SessionOptions {
	fx := fr.fx
	o := engine.SessionOptions{
		Options: engine.Options{SessionID: fr.sessionID(), World: world, Agents: agents, HostReplay: fr.hc, Sink: sink, NoSnapshot: true,
			Observer: fr.r.opts.Observer, Strict: fr.r.opts.Strict, NoAgentHandlers: true},
		StartState: fx.InitialState, Hosts: reg, Clock: engine.NewVirtualClock(epoch), WorkDir: workDir,
		// upstream arms only a seeded initial_state's timeout, not descending a compound
		UnarmedStart: fx.InitialState == "", StartFlat: fx.InitialState != "",
	}
	for _, kv := range fx.InitialWorld {
		o.Seeded = append(o.Seeded, kv.Key)
	}
	// the legacy path is upstream's machine alone (flow-format.md §1.3),
	// which ignores mode; "oneshot" is upstream's other spelling
	o.MachineOnly = fr.legacy
	if !fr.legacy {
		switch fx.Mode {
		case "staged":
			o.Mode = engine.ModeStaged
		case "one-shot", "oneshot":
			o.Mode = engine.ModeOneShot
		}
	}
	if ld.Views != nil {
		o.Views = ld.Views
	}
	return o
}

// play runs each turn through turn, keeping its result (FailFast stops
// after a failing one); false when one ended the run (fatal or skipped).
// obs, when set, sees the session before the first turn and after each.
func (fr *fixtureRun) play(turn func(*Turn) (*TurnResult, bool), obs func(turn int, state string, world map[string]any)) bool {
	if obs != nil {
		obs(-1, fr.sess.State(), fr.sess.World())
	}
	for _, t := range fr.fx.Turns {
		tr, ok := turn(t)
		if fr.res.Fatal != nil || fr.res.Flow.Skipped {
			return false
		}
		if obs != nil {
			obs(t.Index, fr.sess.State(), fr.sess.World())
		}
		fr.res.Flow.Turns = append(fr.res.Flow.Turns, tr)
		fr.res.Turns++
		if !ok && fr.r.opts.FailFast && t.ExpectError == nil {
			break
		}
	}
	return true
}

// recordingProblem is fatal, or a skipped fixture under
// --allow-missing-recording (upstream's flag).
func (fr *fixtureRun) recordingProblem(p Pos, format string, a ...any) {
	if fr.r.opts.AllowMissingRecording {
		fr.res.Flow.Skipped, fr.res.Flow.Passed = true, false
		fr.res.Failures = append(fr.res.Failures, Failure{Turn: -1, Pos: p, Message: "skipped: " + fmt.Sprintf(format, a...)})
		return
	}
	fr.fatal(p, format, a...)
}

// registry is the fixture's host registry (flow-format.md §4.4-4.5): the
// stubs over the real answer_clarification (or every builtin, with
// host_bindings); on the legacy path only handlers that drop every call.
func (fr *fixtureRun) registry(fx *Fixture) *host.Registry {
	reg := host.NewRegistry()
	if fr.legacy {
		// a guard only: agent verbs by exact name, as the engine routes
		// them to its agent layer unless a handler has the name
		reg.Register("host", dropHandler)
		for _, v := range []string{"ask", "decide", "extract", "task", "converse", "search"} {
			reg.Register("host.agent."+v, dropHandler)
		}
		return reg
	}
	fr.star.NoNetwork = true // ctx.http answers from the cassette or fails
	if len(fx.HostBindings) > 0 {
		fr.registerBuiltins(reg)
	} else if h, _, _, ok := host.Builtins(host.Options{}).Lookup(host.HandlerJobsAnswer); ok {
		reg.Register(host.HandlerJobsAnswer, h)
	}
	if fx.StarlarkHTTPCassette != "" || fx.StarlarkInspectCassette != "" {
		// the real script runs; only its ctx.http / ctx.fs / ctx.probe traffic is replayed
		reg.Register(host.HandlerStarlarkRun, host.NewStarlarkRun(fr.star))
	}
	for _, s := range fx.HostHandlers {
		reg.Register(s.Name, s.Handler())
	}
	if len(fx.HostBindings) == 0 {
		servePrefixAgentVerbs(reg)
	}
	return reg
}

// servePrefixAgentVerbs registers under its exact name each agent verb a
// stub serves by prefix, with op the verb, as upstream's longest-prefix
// lookup does (see testdata/conformance/host-agent-prefix-stub).
func servePrefixAgentVerbs(reg *host.Registry) {
	for _, v := range []string{"ask", "ask_with_mcp", "converse", "decide", "extract", "task"} {
		name := "host.agent." + v
		h, _, op, ok := reg.Lookup(name)
		if !ok || op == "" {
			continue
		}
		reg.Register(name, host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
			pc := *c
			pc.Op = op
			if _, set := c.Args["op"]; !set {
				pc.Args = maps.Clone(c.Args)
				if pc.Args == nil {
					pc.Args = map[string]any{}
				}
				pc.Args["op"] = op
			}
			return h.Call(ctx, &pc)
		}))
	}
}

// agents is the fixture's agent layer: no agent starts, so a call no stub
// or cassette episode answers is an unregistered handler's infra error
// (see testdata/conformance/cassette-agent-answers). Episodes naming an
// agent alias (a kitsoki extension) are answered through the profile's
// plugin assembly, as kitsoki run builds it.
func (fr *fixtureRun) agents(sink engine.Sink) (engine.AgentCaller, func(), error) {
	none := engine.AgentCallerFunc(func(ctx context.Context, c engine.AgentCall) (*engine.AgentAnswer, error) {
		return nil, fmt.Errorf("host: no handler registered for %q", "host.agent."+c.Verb)
	})
	if fr.fx.HostCassette == "" || fr.legacy {
		return none, func() {}, nil
	}
	cas, err := agent.LoadCassette(fr.fx.rel(fr.fx.HostCassette))
	if err != nil {
		return nil, nil, fmt.Errorf("host_cassette: %v", err)
	}
	if !cas.NamesAlias() {
		return none, func() {}, nil
	}
	rt, err := fr.plan.Build(compose.BuildOptions{Cassette: cas, Sink: sink})
	if err != nil {
		return nil, nil, err
	}
	return rt.Caller(), func() { rt.Close() }, nil
}

var slugRE = &lazyre.Regexp{Expr: `[^A-Za-z0-9._-]+`}

func slug(s string) string { return strings.Trim(slugRE.ReplaceAllString(s, "_"), "_") }

// traceName is a fixture's --trace-dir file name: its path with separators
// folded, plus a hash of the path when folding lost anything ("é" and "ü",
// or a "__"), so two fixtures never share a trace.
func traceName(fx *Fixture) string {
	name := strings.TrimSuffix(filepath.ToSlash(filepath.Clean(fx.File)), ".yaml")
	name = strings.TrimLeft(strings.ReplaceAll(name, "../", ""), "./")
	if fx.Docs > 1 {
		name += fmt.Sprintf("-%d", fx.Doc)
	}
	folded := strings.ReplaceAll(name, "/", "__")
	out := slug(folded)
	if out != folded || strings.Contains(name, "__") {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", filepath.ToSlash(filepath.Clean(fx.File)), fx.Doc)))
		out += "-" + hex.EncodeToString(sum[:4])
	}
	return out
}

// rebind is the story recompiled with the fixture's host_bindings as its
// interfaces' defaults (upstream reloads the app with them).
func rebind(ld *compose.Loaded, binds []KV) *compose.Loaded {
	st := *ld.Story
	st.HostInterfaces = maps.Clone(ld.Story.HostInterfaces)
	changed := false
	for _, kv := range binds {
		to, _ := kv.Value.(string)
		hi, ok := st.HostInterfaces[kv.Key]
		if !ok || hi == nil || hi.Default == to {
			continue
		}
		cp := *hi
		cp.Default = to
		st.HostInterfaces[kv.Key] = &cp
		changed = true
	}
	if !changed {
		return ld
	}
	out := &compose.Loaded{Path: ld.Path, Story: &st, Diagnostics: ld.Diagnostics, Views: ld.Views}
	out.Compile(engine.CompileOptions{LateHandlers: true})
	return out
}

// renderSlots renders string slot values holding {{ }} against the world
// before the turn's world_override (flow-format.md §3.1).
func renderSlots(slots map[string]any, world map[string]any) {
	for k, v := range slots {
		s, ok := v.(string)
		if !ok || !strings.Contains(s, "{{") {
			continue
		}
		tpl, err := expr.CompilePongo(s)
		if err == nil {
			var out string
			if out, err = tpl.Render(expr.Env{"world": world}); err == nil {
				slots[k] = out
				continue
			}
		}
		slots[k] = fmt.Sprintf("(renderSlots error for %q: %s)", s, renderSlotError(s, err))
	}
}

// renderSlotError is a slot template's error in upstream's words.
func renderSlotError(src string, err error) string {
	if pe, ok := errors.AsType[*pongo2.Error](err); ok {
		return fmt.Sprintf("render: pongo2 template %q: %s", expr.CoalesceRewritten(src), pe.Error())
	}
	return err.Error()
}

// outcome is what one fired turn produced, as the checks read it.
type outcome struct {
	turn    *engine.Turn
	evs     []event
	rej     *engine.Rejection
	clarify bool
	view    string
}

// turn runs one turn and checks it; ok is false when an expectation failed.
func (fr *fixtureRun) turn(ctx context.Context, t *Turn) (tr *TurnResult, ok bool) {
	s := fr.sess
	c := &checker{turn: t.Index}
	jobsBefore := jobStatuses(s.Jobs())
	in, sent, ok := fr.input(t)
	if !ok {
		return nil, false
	}
	if len(t.WorldOverride) > 0 && in != nil {
		// before the intent, so its guards see them (§3.1)
		if err := s.Override(ctx, fr.legacyWhole(kvMap(t.WorldOverride)).(map[string]any)); err != nil {
			c.fail(t.at("world_override"), "world_override: %v", err)
		}
	}
	if in != nil {
		// a finished job lands between turns (conformance job-landing-moves-turn-start)
		if err := s.Land(ctx); err != nil {
			fr.fatal(t.Pos, "turn %d: the session cannot go on: %v", t.Index+1, err)
			return nil, false
		}
	}
	before := s.World()
	from := s.State()
	var out outcome
	if in != nil {
		turn, err := s.Fire(ctx, *in)
		if err != nil {
			fr.fatal(t.Pos, "turn %d: the session cannot go on: %v", t.Index+1, err)
			return nil, false
		}
		out = fr.outcome(t, c, in, turn, from)
	}
	if !fr.advance(ctx, t, in == nil) {
		return nil, false
	}
	if out.turn != nil && out.turn.RigView && t.HasAdvance && t.AdvanceClock > 0 && !fr.legacy {
		// upstream's turn.end had no view: its rig renders the resting
		// state after the advance (conformance rig-view-after-advance)
		out.view = ""
	}
	if !fr.retain(t, out.evs, out.view) {
		return nil, false
	}
	state := s.State()
	c.state, c.events = state, out.evs
	fr.allEvents = append(fr.allEvents, out.evs...)
	tr = &TurnResult{TurnIndex: t.Index, NewState: state, Events: reportEvents(out.evs)}
	if t.ExpectError != nil {
		return fr.errorTurn(ctx, t, c, tr, out, from, before)
	}
	fr.checkTurn(ctx, t, c, tr, out, sent, before, jobsBefore)
	return fr.close(tr, c)
}

// input is what a turn sends: its intent and slots (a copy), or the
// recording's answer to its input: (nil: nothing; !ok: the run ends).
func (fr *fixtureRun) input(t *Turn) (in *engine.Input, sent map[string]any, ok bool) {
	switch {
	case t.Intent != nil:
		// no slots: key sends slots: null, slots: {} an empty map
		if t.Intent.Slots != nil {
			sent = yamlWhole(jsonvalue.CopyNilAsEmpty(kvMap(t.Intent.Slots))).(map[string]any)
		}
		if !fr.legacy {
			renderSlots(sent, fr.sess.World())
		}
		return &engine.Input{Intent: t.Intent.Name, Slots: sent}, sent, true
	case t.HasInput:
		e := fr.recorded(t, fr.sess.State())
		if e == nil {
			return nil, nil, false
		}
		// as an intent: turn's: an entry with no slots: (or slots: ~)
		// sends slots: null, slots: {} an empty map
		if e.Slots != nil {
			sent = jsonvalue.CopyNilAsEmpty(e.Slots).(map[string]any)
		}
		return &engine.Input{Intent: e.Intent, Slots: sent}, sent, true
	}
	return nil, nil, true
}

// recorded is the recording's answer to t's input: in state; nil, the
// fixture fatal or skipped, when there is none.
func (fr *fixtureRun) recorded(t *Turn, state string) *RecordingEntry {
	if fr.rec == nil {
		fr.recordingProblem(t.at("input"), "turn %d: input %q requires a recording but none was loaded (set recording: in the fixture, or pass --recording)", t.Index+1, t.Input)
		return nil
	}
	e, err := fr.rec.Lookup(state, t.Input)
	if err != nil {
		fr.recordingProblem(t.at("input"), "turn %d: %v", t.Index+1, err)
		return nil
	}
	return e
}

// leaves are a resting state path's leaves: a parallel configuration's
// (root#leafA|leafB), or the state itself.
func leaves(state string) []string {
	if _, ls, ok := strings.Cut(state, "#"); ok {
		return strings.Split(ls, "|")
	}
	return []string{state}
}

// allowedAt lists the intents a resting state path takes, sorted.
func allowedAt(m *engine.Machine, state string) []string {
	var out []string
	for _, l := range leaves(state) {
		out = append(out, m.AllowedIntents(l)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// aliasesAt lists the imported intents' bare names upstream's rejection
// also allows at state: on the orchestrator path only those the story
// declares (see testdata/conformance/import-allowed-aliases).
func aliasesAt(m *engine.Machine, state string, legacy bool) []string {
	var out []string
	for _, l := range leaves(state) {
		st := m.States[l]
		for s := st; s != nil; s = s.Parent {
			for bare := range s.Aliases {
				if legacy || declaredAt(m, st, bare) {
					out = append(out, bare)
				}
			}
		}
	}
	return out
}

// declaredAt: intent is global, or local to st or an ancestor.
func declaredAt(m *engine.Machine, st *engine.State, intent string) bool {
	if _, ok := m.Intents[intent]; ok {
		return true
	}
	for s := st; s != nil; s = s.Parent {
		if _, ok := s.Intents[intent]; ok {
			return true
		}
	}
	return false
}

// withAliases is allowed with extra added, sorted, without repeats.
func withAliases(allowed, extra []string) []string {
	if len(extra) == 0 {
		return allowed
	}
	out := append(slices.Clone(allowed), extra...)
	slices.Sort(out)
	return slices.Compact(out)
}

// outcome reads a fired turn as upstream reports it: its events, its
// rejection (a copy, its Allowed rewritten; or clarify) and its view.
func (fr *fixtureRun) outcome(t *Turn, c *checker, in *engine.Input, turn *engine.Turn, from string) outcome {
	out := outcome{turn: turn, evs: toEvents(turn.Events, fr.legacy), view: turn.View}
	if turn.Rejection != nil {
		rej := *turn.Rejection
		out.rej = &rej
	}
	if !fr.legacy {
		orchestratorStatePaths(out.evs, from)
	}
	if t.DisplayInput != "" {
		displayInput(out.evs, t.DisplayInput)
	}
	// the orchestrator's missing slot is a clarify outcome (flow-format.md §3.6)
	if out.rej != nil && !fr.legacy && out.rej.Code == engine.CodeMissingSlots {
		out.rej, out.clarify, out.evs, out.view = nil, true, nil, ""
	}
	if out.rej != nil && fr.legacy && out.rej.Code == engine.CodeMissingSlots && len(out.evs) == 0 {
		out.evs = []event{legacyMissingSlots(out.rej, in.Intent)}
	}
	if out.rej != nil && !fr.legacy && out.rej.Code != engine.CodeNotAllowed {
		// the orchestrator lists what the state takes on every rejection,
		// the legacy machine only on INTENT_NOT_ALLOWED_IN_STATE
		out.rej.Allowed = allowedAt(fr.m, from)
		if fr.sess.RestsUnknown() { // conformance start-under-known-rest
			out.rej.Allowed = fr.sess.Available()
		}
	}
	if out.rej != nil && (!fr.legacy || out.rej.Code == engine.CodeNotAllowed) {
		out.rej.Allowed = withAliases(out.rej.Allowed, aliasesAt(fr.m, from, fr.legacy))
	}
	if out.rej != nil && !fr.legacy {
		out.rej.Allowed = fr.m.ByPriority(out.rej.Allowed, from)
	}
	fr.hadErrors = fr.hadErrors || out.rej != nil
	if turn.Err != nil {
		c.fail(t.Pos, "the turn failed: %v", turn.Err)
	}
	return out
}

// advance moves the virtual clock by the turn's advance_clock; false when
// the session cannot go on. A clock-only turn always advances, even by 0,
// so its view re-renders against the replayed world (flow-format.md §3.1).
func (fr *fixtureRun) advance(ctx context.Context, t *Turn, clockOnly bool) bool {
	if fr.legacy || (!clockOnly && (!t.HasAdvance || t.AdvanceClock <= 0)) {
		return true
	}
	if _, err := fr.sess.Advance(ctx, t.AdvanceClock); err != nil {
		fr.fatal(t.at("advance_clock"), "turn %d: advance_clock %s: %v", t.Index+1, t.AdvanceRaw, err)
		return false
	}
	// a failing timed turn is rolled back, its error event kept; as
	// upstream, the fixture's turn does not fail (docs/compat/flowtest.md)
	return true
}

// errorTurn checks an expect_error turn, which runs no other assertion
// (flow-format.md §3.6).
func (fr *fixtureRun) errorTurn(ctx context.Context, t *Turn, c *checker, tr *TurnResult, out outcome, from string, before map[string]any) (*TurnResult, bool) {
	if fr.legacy {
		c.state = from
	}
	mode := "transitioned"
	switch {
	case out.clarify:
		mode = "clarify"
	case fr.terminal(fr.sess, c.state):
		mode = "completed"
	}
	c.errorChecks(t.ExpectError, out.rej, fr.legacy, mode)
	fr.observeTurn(t, c.state, nil, "", out, false)
	if fr.legacy {
		// upstream's legacy path throws an accepted turn away: the next
		// turn starts where this one did
		tr.NewState = from
		if out.rej == nil && out.turn != nil && !fr.restart(ctx, t, from, before) {
			return nil, false
		}
	}
	return fr.close(tr, c)
}

// exitState reports whether state is an @exit's synthesized terminal
// (__exit__<name>) rather than a state the story declares.
func (fr *fixtureRun) exitState(state string) bool {
	if !strings.HasPrefix(state, "__exit__") {
		return false
	}
	m := fr.ld.Machine
	return m == nil || m.States[state] == nil
}

// checkTurn runs a turn's expectations on what it landed on.
func (fr *fixtureRun) checkTurn(ctx context.Context, t *Turn, c *checker, tr *TurnResult, out outcome, sent, before map[string]any, jobsBefore map[string]string) {
	s := fr.sess
	c.rejected(t.Pos, out.rej, fr.legacy)
	state, world := tr.NewState, s.World()
	// the view (flow-format.md §3.7): on the legacy path a re-render, on
	// the orchestrator's the turn's own unless empty; either falls back to the other
	view := out.view
	vp, ok := s.ViewPath(state)
	if fr.legacy && (!ok || fr.exitState(state)) {
		// resting on a path the story does not hold, the legacy re-render
		// shows nothing, not the turn's narration (conformance
		// hop-template-target-unknown); nor on an @exit, whose synthesized
		// __exit__ state has no view (conformance exit-transition-view)
		view = ""
	}
	if ok && (view == "" || fr.legacy) && fr.ld.Views != nil {
		// upstream has no run context (conformance mutate-run-root-rerender)
		run := map[string]any{"id": "", "turn": 0}
		// and no event, on either path (conformance view-when-legacy-event)
		extra := map[string]any{expr.ContextKey: ctx, "run": run, kview.NilEventKey: true}
		if v, err := fr.ld.Views.RenderView(vp, world, extra); err == nil {
			view = v
		}
	}
	tr.View = view
	if fr.ld.Views == nil && (t.ExpectViewMatches != nil || t.ExpectNoView) {
		c.fail(t.at("expect_view_matches"), "not supported yet: views (expect_view_matches / expect_no_view need the view renderer)")
		cp := *t // the view checks dropped
		cp.ExpectViewMatches, cp.ExpectNoView = nil, false
		t = &cp
	}
	fr.observeTurn(t, state, world, view, out, true)
	c.stateChecks(t, state)
	c.worldChecks(t, world, before, fr.legacy)
	// in upstream's order: events, host calls, the view, then slots
	c.eventChecks(t, out.evs, fr.legacy)
	c.hostCallChecks(t, out.evs, fr.legacy)
	if f := c.viewChecks(t, view); f != nil && fr.ld.Views != nil {
		// render the view again to say what it left out
		seen := map[string]bool{}
		warn := func(err error) {
			if msg := err.Error(); !seen[msg] {
				seen[msg] = true
				f.Message += "\nleft out: " + msg
			}
		}
		_, _ = fr.ld.Views.RenderView(state, world, map[string]any{expr.ContextKey: ctx, expr.WarnKey: warn})
	}
	c.slotChecks(t, sent)
	if !fr.legacy {
		// upstream's legacy runner reads neither
		c.inboxChecks(t, s.Inbox())
		c.jobChecks(t, jobsBefore, s.Jobs())
	}
}

// restart puts the legacy session back at state with world: with no
// clock, jobs or host results there, a fresh session is the same machine.
func (fr *fixtureRun) restart(ctx context.Context, t *Turn, state string, world map[string]any) bool {
	o := fr.sopts
	o.StartState = state
	o.Options.World, _ = jsonvalue.CopyNilAsEmpty(world).(map[string]any)
	sess, err := engine.Start(ctx, fr.m, o)
	if err != nil {
		if sess != nil {
			sess.Close()
		}
		fr.fatal(t.Pos, "turn %d: the session cannot go back to %q: %v", t.Index+1, state, err)
		return false
	}
	if fr.sess != fr.first {
		fr.sess.Close()
	}
	fr.sess = sess
	return true
}

func (fr *fixtureRun) close(tr *TurnResult, c *checker) (*TurnResult, bool) {
	tr.Failures = messages(c.fails)
	tr.Passed = len(c.fails) == 0
	fr.res.Failures = append(fr.res.Failures, c.fails...)
	return tr, tr.Passed
}

// session is what the session checks read of a session.
type session interface {
	State() string
	World() map[string]any
	Terminal() bool
}

// finish runs the session-level assertions (flow-format.md §3.12) and
// sets the verdict.
func (fr *fixtureRun) finish(s session) {
	fx := fr.fx
	c := &checker{turn: -1, state: s.State()}
	if fx.ExpectTerminal != nil && *fx.ExpectTerminal && !fr.terminal(s, c.state) {
		c.fail(fx.at("expect_terminal"), "expect_terminal: state %q is not terminal", c.state)
	}
	n := len(fr.allEvents)
	if fx.ExpectEventsAtLeast != nil && n < *fx.ExpectEventsAtLeast {
		c.fail(fx.at("expect_events_count_atleast"), "expect_events_count_atleast: got %d events, want >= %d", n, *fx.ExpectEventsAtLeast)
	}
	if fx.ExpectEventsAtMost != nil && n > *fx.ExpectEventsAtMost {
		c.fail(fx.at("expect_events_count_atmost"), "expect_events_count_atmost: got %d events, want <= %d", n, *fx.ExpectEventsAtMost)
	}
	if fx.ExpectNoErrors != nil && *fx.ExpectNoErrors && fr.hadErrors {
		c.fail(fx.at("expect_no_errors"), "expect_no_errors: there were validation errors")
	}
	world := s.World()
	fr.observeFinal(world)
	c.worldKeys("expect_world_final", fx.ExpectWorldFinal, world, false)
	c.noHostCalls(fx.at("expect_no_host_calls"), fx.ExpectNoHostCalls, fr.allEvents, fr.legacy)
	if fx.StrictCassetteCoverage && fr.hc != nil {
		if left := fr.hc.Remaining(); len(left) > 0 {
			c.fail(fx.at("strict_cassette_coverage"), "unexpected remaining episodes: %v", left)
		}
	}
	for _, fe := range fx.ExpectFiles {
		fr.fileCheck(c, fe)
	}
	for i := range c.fails {
		c.fails[i].Events = nil
	}
	if len(c.fails) > 0 {
		// a failed (Passed false) session pseudo-turn
		fr.res.Flow.Turns = append(fr.res.Flow.Turns, &TurnResult{TurnIndex: -1, Failures: messages(c.fails)})
		fr.res.Failures = append(fr.res.Failures, c.fails...)
	}
	fr.res.Flow.Passed = fr.res.Fatal == nil &&
		!slices.ContainsFunc(fr.res.Flow.Turns, func(t *TurnResult) bool { return !t.Passed }) &&
		!slices.ContainsFunc(fr.res.Failures, func(f Failure) bool { return f.Turn == -1 })
}

// terminal: the state's terminal: true, an exit (__exit__*), or the
// session's own end.
func (fr *fixtureRun) terminal(s session, state string) bool {
	if strings.HasPrefix(state, "__exit__") || s.Terminal() {
		return true
	}
	st, ok := fr.m.States[state]
	return ok && st.Terminal
}

func (fr *fixtureRun) fileCheck(c *checker, fe FileExpect) {
	// a file outside the project root is never looked at
	p, err := fr.resolve("expect_files", fe.Path)
	if err != nil {
		c.fail(fe.Pos, "%v", err)
		return
	}
	p = fr.written(p)
	st, err := os.Stat(p)
	exists := err == nil && !st.IsDir()
	if fe.MustNotExist {
		if exists {
			c.fail(fe.Pos, "expect_files[%s]: must_not_exist but file is present", fe.Path)
		}
		return
	}
	if !exists {
		// as upstream: the path joined to the fixture's directory as the
		// run named it (relative when the story was named relative)
		shown := fe.Path
		if !filepath.IsAbs(shown) {
			shown = filepath.Join(filepath.Dir(fr.fx.File), shown)
		}
		c.fail(fe.Pos, "expect_files[%s]: file does not exist (resolved: %s)", fe.Path, shown)
		return
	}
	if fe.ContentMatches == "" {
		return
	}
	re, err := regexp.Compile(fe.ContentMatches)
	if err != nil {
		c.fail(fe.Pos, "expect_files[%s]: invalid regex %q: %v", fe.Path, fe.ContentMatches, err)
		return
	}
	data, err := readBounded(p)
	if err != nil {
		c.fail(fe.Pos, "expect_files[%s]: read failed: %v", fe.Path, err)
		return
	}
	if err := recost.Check(recost.Insts(fe.ContentMatches), len(data)); err != nil {
		c.fail(fe.Pos, "expect_files[%s]: content_matches: %v", fe.Path, err)
		return
	}
	if !re.Match(data) {
		c.fail(fe.Pos, "expect_files[%s]: content does not match %q", fe.Path, fe.ContentMatches)
	}
}

// written is p as upstream's real handlers would have left it: they write
// under the process's working directory, ours under the fixture's own
// (docs/compat/flowtest.md "Working directory of real handlers"), so a
// p below the story's directory (where upstream's fixtures are run from)
// or the working directory that a handler wrote there is read there, when
// no symlink on its way leads out of the working directory; else p
// (conformance expect-files-written).
func (fr *fixtureRun) written(p string) string {
	if fr.wd == "" {
		return p
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	wd := safefile.NewRoot(fr.wd)
	defer wd.Close()
	var bases []string
	if fr.ld != nil && fr.ld.Story != nil {
		bases = append(bases, fr.ld.Story.Dir)
	}
	if cwd, err := os.Getwd(); err == nil {
		bases = append(bases, cwd)
	}
	for _, base := range bases {
		if base, err = filepath.Abs(base); err != nil {
			continue
		}
		rel, err := filepath.Rel(base, abs)
		if err != nil || !filepath.IsLocal(rel) {
			continue
		}
		w := filepath.Join(fr.wd, rel)
		if _, err := wd.Stat(w); err == nil && w != abs {
			return w
		}
	}
	return p
}

// displayInput puts display_input in place of turn.input and
// turn.start's "[intent] <name>", as upstream (the trace keeps the engine's).
func displayInput(evs []event, text string) {
	for i := range evs {
		if evs[i].Kind != engine.KindTurnInput && evs[i].Kind != engine.KindTurnStart {
			continue
		}
		if m, ok := evs[i].payload.(map[string]any); ok {
			if _, has := m["input"]; has {
				m["input"] = text
			}
		}
	}
}
