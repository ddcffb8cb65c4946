package flowtest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/recost"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"

	"github.com/flosch/pongo2/v6"
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
	sharedWD  string // the run's shared working directory, "" for none
	// bugSess and bugSeen: the session handlerPanics last looked at and
	// how many of its panics it reported
	bugSess *engine.Session
	bugSeen int
	// rigState is the state upstream's legacy rig last recorded: the
	// initial_state as written, then each turn's NewState; an
	// expect_error turn reports it (conformance legacy-error-state-written)
	rigState string
}

// patterns is the story's regexp budget, which the fixture's patterns and
// cassettes share with every other fixture of the story.
func (fr *fixtureRun) patterns() *recost.Budget {
	if fr.ld == nil || fr.ld.Story == nil {
		return nil
	}
	return fr.ld.Story.Patterns()
}

// named resolves p, a file the fixture names under key, inside the
// project root (confine.go); false, the fixture failed at key's value, when it leaves it.
func (fr *fixtureRun) named(key, p string) (string, bool) {
	full, err := fr.resolve(key, p)
	if err != nil {
		fr.fatal(fr.fx.valueAt(key), "%v", err)
		return "", false
	}
	return full, true
}

func (fr *fixtureRun) resolve(key, p string) (string, error) {
	return resolveNamed(fr.root(), fr.fx.File, key, p)
}

// root is the directory the files the fixture names lie in (namedRoot).
func (fr *fixtureRun) root() string {
	var st *story.Story
	if fr.ld != nil {
		st = fr.ld.Story
	}
	return namedRoot(st, fr.fx.File)
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
	if !ok || !fr.confined() || !fr.loadRecording() || !fr.loadCassettes() {
		return
	}
	defer fr.flushHTTPCassette()
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
	if (fr.legacy || fr.m.Root == "") && fx.InitialState == "" || strings.Contains(fx.InitialState, "/") && !strings.Contains(fx.InitialState, "#") {
		// upstream's legacy path, and a story with root: "", start in the
		// state ""; "c/c1" names no state upstream (stranded.go), where
		// p#p/ra/x1 is a parallel path with an entry in no region
		// (conformance par-start-entry-forms)
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
	fr.rigState = cmp.Or(fx.InitialState, sess.State())
	defer func() {
		if fr.sess != fr.first {
			fr.sess.Close()
		}
	}()
	if fr.play(func(t *Turn) (*TurnResult, bool) { return fr.turn(ctx, t) }, fr.r.opts.observe) {
		fr.handlerPanics(nil, nil)
		fr.finish(fr.sess)
	}
}

// play runs each turn through turn, keeping its result (FailFast stops
// after a failing one); false when one ended the run (fatal or skipped).
// obs, when set, sees the session before the first turn and after each.
func (fr *fixtureRun) play(turn func(*Turn) (*TurnResult, bool), obs func(turn int, state string, world map[string]any, jobs []engine.JobInfo)) bool {
	if obs != nil {
		obs(-1, fr.sess.State(), fr.sess.World(), fr.sess.Jobs())
	}
	for _, t := range fr.fx.Turns {
		tr, ok := turn(t)
		if fr.res.Fatal != nil || fr.res.Flow.Skipped {
			return false
		}
		fr.handlerPanics(t, tr)
		if obs != nil {
			obs(t.Index, fr.sess.State(), fr.sess.World(), fr.sess.Jobs())
		}
		if tr != nil {
			fr.rigState = tr.NewState
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

// renderSlots renders string slot values holding {{ }} against the world
// before the turn's world_override (flow-format.md §3.1), in the bare view
// context of slotTemplateEnv.
func renderSlots(slots map[string]any, world map[string]any) {
	env := slotTemplateEnv(world)
	for k, v := range slots {
		s, ok := v.(string)
		if !ok || !strings.Contains(s, "{{") {
			continue
		}
		tpl, err := expr.CompilePongo(s)
		if err == nil {
			var out string
			if out, err = tpl.Render(env); err == nil {
				slots[k] = out
				continue
			}
		}
		slots[k] = fmt.Sprintf("(renderSlots error for %q: %s)", s, renderSlotError(s, err))
	}
}

// slotTemplateEnv is the context upstream renders a fixture's slot
// templates in: the world; run as {id: "", turn: 0} (an int64) on every
// turn; slots, event, args, state and menu as empty maps (not nil); and the
// view helpers answering for no state (conformance slot-template-context).
func slotTemplateEnv(world map[string]any) expr.Env {
	return expr.Env{
		"world":          world,
		"run":            map[string]any{"id": "", "turn": int64(0)},
		"slots":          map[string]any{},
		"event":          map[string]any{},
		"args":           map[string]any{},
		"state":          map[string]any{},
		"menu":           map[string]any{},
		"available":      func(string) bool { return false },
		"blocked":        func(string) bool { return false },
		"blocked_reason": func(string) string { return "" },
		"intent_status":  func(string) string { return "unknown" },
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
	c := &checker{turn: t.Index, patterns: fr.patterns()}
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
		sent = fr.validatedSlots(from, in.Intent, sent)
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
		sent = intentSlots(t.Intent, fr.legacy, fr.sess.World)
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

// intentSlots are the slots an intent: sends: none without a slots:
// key (null), an empty map for slots: {}; on the orchestrator path its
// {{ }} templates rendered on world's world (renderSlots).
func intentSlots(in *IntentSpec, legacy bool, world func() map[string]any) map[string]any {
	var sent map[string]any
	if in.Slots != nil {
		sent = yamlWhole(jsonvalue.CopyNilAsEmpty(kvMap(in.Slots))).(map[string]any)
	}
	if !legacy {
		renderSlots(sent, world())
	}
	return sent
}

// validatedSlots is the slot map a turn sent as upstream's validation
// leaves it, which expect_slots reads: the defaults of absent optional
// slots written in (by engine.Machine.CheckIntent's rules, a refused
// call's too), when the turn sent a map at all; one that sent none
// stays none (conformance expect-slots-defaults).
func (fr *fixtureRun) validatedSlots(from, intent string, sent map[string]any) map[string]any {
	if sent == nil {
		return nil
	}
	bag, _, err := fr.m.CheckIntent(from, intent, sent)
	if err != nil || bag == nil {
		return sent
	}
	return bag
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
	} else if !fr.legacy && unloggable(turn.Events, out.evs) {
		c.fail(t.Pos, "the turn failed: %s", nonNFCTurn)
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
	// the rig reads no event of the advance: AdvanceClock keeps none
	if err := fr.sess.AdvanceClock(ctx, t.AdvanceClock); err != nil {
		fr.fatal(t.at("advance_clock"), "turn %d: advance_clock %s: %v", t.Index+1, t.AdvanceRaw, err)
		return false
	}
	// a failing timed turn is rolled back, its error event kept; as
	// upstream, the fixture's turn does not fail (docs/compat/flowtest.md)
	return true
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
