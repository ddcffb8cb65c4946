package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Caps of reference §5.2.
const (
	MaxEmitDepth    = 8
	MaxOnErrorDepth = 4
)

// Input is one --intent with its slots, consumed when the machine rests.
type Input struct {
	Intent string
	Slots  map[string]any
}

// Options configure one run.
type Options struct {
	SessionID string
	World     World   // initial world (InitWorld); nil = story defaults
	Inputs    []Input // consumed in order when the machine rests
	Agents    AgentCaller
	// HostCassette answers host calls for every handler it has episodes for.
	HostCassette *HostCassette
	Sink         Sink       // nil = events dropped
	Notes        func(Note) // human log; nil = none
	// NoSnapshot leaves the session.story snapshot out of the trace.
	NoSnapshot bool
	Now        func() time.Time
	// Wait waits out a state's timeout: (nil = a real timer). It returns
	// ctx's error when ctx ends first.
	Wait func(ctx context.Context, d time.Duration) error
	// HostHooks run before every host call that is not an agent call
	// (host/pre-call hooks); nil = none.
	HostHooks HostHooks
}

// Outcome of a run.
const (
	OutcomeExit     = "exit"     // reached @exit:<name>
	OutcomeTerminal = "terminal" // reached a terminal: true state
	OutcomeRested   = "rested"   // rests with no input left and no timeout: to wait for
	OutcomeFailed   = "failed"   // an error stopped the run
)

// Result is how a run ended.
type Result struct {
	Outcome string
	Exit    string // exit name for OutcomeExit
	State   string // final state path (__exit__<name> for exits)
	World   map[string]any
	Calls   []CallSummary
	Turns   int64
	Err     error // set for OutcomeFailed
	// Available lists the intents the resting state handles (OutcomeRested).
	Available []string
	// Unconsumed counts the inputs left when the run ended early.
	Unconsumed int
}

// Finished reports whether the run reached an exit or terminal state.
func (r *Result) Finished() bool {
	return r.Outcome == OutcomeExit || r.Outcome == OutcomeTerminal
}

type runner struct {
	m       *Machine
	opts    Options
	world   World
	cur     *State // current leaf; nil after an exit
	turn    int64
	slots   map[string]any
	ended   bool
	outcome string
	exit    string
	calls   []CallSummary
	agentN  map[string]int // per turn+state agent call counter
	// agentUsed maps a call id to the alias that served it (agent_alias.go).
	agentUsed map[string]string
	// turnState is the state at the start of the turn: host cassettes match
	// phase against it (trace-eval.md B.2).
	turnState string
	consumed  int
}

// Run executes the machine from its root until it ends or rests with no
// input (a resting state's timeout: is waited out and fired first). It always returns a Result; Result.Err carries the failure.
func Run(ctx context.Context, m *Machine, opts Options) *Result {
	r := &runner{m: m, opts: opts, agentN: map[string]int{}}
	if opts.World != nil {
		r.world = opts.World
	} else {
		w, _ := InitWorld(m.World, nil, nil)
		r.world = w
	}
	if r.opts.SessionID != "" {
		r.world["session_id"] = r.opts.SessionID
	}
	err := r.run(ctx)
	res := &Result{World: r.world.Snapshot(), Calls: r.calls, Turns: r.turn}
	switch {
	case r.ended:
		res.Outcome, res.Exit = r.outcome, r.exit
	case err != nil:
		res.Outcome = OutcomeFailed
	default:
		res.Outcome = OutcomeRested
	}
	if r.cur != nil {
		res.State = r.cur.Path
	}
	if res.Outcome == OutcomeExit {
		res.State = "__exit__" + r.exit
	}
	if err != nil {
		res.Outcome, res.Err = OutcomeFailed, err
		if r.cur != nil {
			_ = r.emit(KindMachineError, map[string]any{"state": r.cur.Path, "error": err.Error()})
		}
	}
	res.Unconsumed = len(opts.Inputs) - r.consumed
	if res.Outcome == OutcomeRested && r.cur != nil {
		res.Available = r.available(r.cur)
	}
	return res
}

func (r *runner) run(ctx context.Context) error {
	root := r.m.States[r.m.Root]
	if root == nil {
		return fmt.Errorf("root state %q does not exist", r.m.Root)
	}
	r.turnState = root.Path
	// Turn 0: bootstrap. The story snapshot and the world overrides first,
	// so that a reader can rebuild the run from the trace alone.
	if r.m.Dir != "" && !r.opts.NoSnapshot {
		snap, err := storySnapshot(r.m.AppID, r.m.Dir, r.m.Entry)
		if err != nil {
			return fmt.Errorf("session.story: %w", err)
		}
		if err := r.emitAt("", KindSessionStory, snap); err != nil {
			return err
		}
	}
	if over := r.overrides(); len(over) > 0 {
		if err := r.emitAt("", KindWorldUpdate, map[string]any{"set": over, "source": "overrides"}); err != nil {
			return err
		}
	}
	// The initial on_enter chain.
	var st step
	if err := r.enterFrom(ctx, nil, root, &st); err != nil {
		return err
	}
	if err := r.settle(ctx, &st, 0); err != nil {
		return err
	}
	for i := 0; !r.ended; {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("run interrupted: %w", err)
		}
		if i == len(r.opts.Inputs) {
			// no input left: a state with timeout: fires it, else the
			// machine rests and the run ends
			tm, owner := r.activeTimeout()
			if tm == nil {
				break
			}
			if err := r.fireTimeout(ctx, tm, owner); err != nil {
				return err
			}
			continue
		}
		in := r.opts.Inputs[i]
		i++
		r.turn++
		r.consumed++
		from := r.cur.Path
		r.turnState = from
		if err := r.emit(KindTurnInput, map[string]any{"input": "[intent] " + in.Intent, "intent": in.Intent}); err != nil {
			return err
		}
		if err := r.emit(KindTurnStart, map[string]any{"direct": true, "input": "[direct] intent=" + in.Intent, "turn": r.turn}); err != nil {
			return err
		}
		r.note(Note{Kind: "intent", State: from, Text: in.Intent + slotText(in.Slots)})
		slots, err := r.inputSlots(in.Intent, in.Slots)
		if err != nil {
			_ = r.emit(KindValidationFailed, map[string]any{"code": "SLOT_INVALID", "intent": in.Intent, "state": r.cur.Path, "message": err.Error()})
		} else {
			err = r.fire(ctx, in.Intent, slots, 0)
		}
		end := map[string]any{"outcome": "transitioned"}
		if err != nil {
			end = map[string]any{"outcome": "rejected", "error": err.Error()}
		} else if r.cur != nil {
			end["to"] = r.cur.Path
		}
		if r.ended && r.outcome == OutcomeExit {
			end["to"] = "__exit__" + r.exit
		}
		if e2 := r.emitAt(from, KindTurnEnd, end); e2 != nil && err == nil {
			err = e2
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// overrides returns the world keys whose initial value differs from the
// story default (--world, --world-file, session_id).
func (r *runner) overrides() map[string]any {
	def, _ := InitWorld(r.m.World, nil, nil)
	out := map[string]any{}
	for k, v := range r.world {
		d, ok := def[k]
		if ok && sameJSON(d, v) {
			continue
		}
		out[k] = deepCopy(v)
	}
	return out
}

func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// pendingEmit is an emit_intent effect waiting for the post-bind pass.
type pendingEmit struct {
	e     *Effect
	slots map[string]any
}

// pendingCall is a host call queued while the machine walks a step, with the
// state whose chain reached it (trace events are credited to it) and the
// slots then in force.
type pendingCall struct {
	e     *Effect
	state *State
	slots map[string]any
}

// step collects what one machine step queues: host calls to dispatch after
// the walk, then emit_intent effects for the post-bind pass.
type step struct {
	calls []pendingCall
	emits []pendingEmit
}

// redirect is an on_error redirect waiting to happen.
type redirect struct {
	from   *State
	target string
	err    string
}

// settle finishes a machine step (reference §5.2): it dispatches the queued
// host calls in order, performs an on_error redirect when one fails (the
// calls still queued and the step's emits are dropped; the redirect's own
// step is settled the same way, depth cap 4), then runs the post-bind
// emit_intent pass.
func (r *runner) settle(ctx context.Context, st *step, depth int) error {
	hops := 0
	for {
		rd, err := r.dispatchCalls(ctx, st.calls)
		if err != nil {
			return err
		}
		if rd == nil {
			break
		}
		hops++
		if hops > MaxOnErrorDepth {
			return fmt.Errorf("on_error redirect depth cap %d exceeded: %s keeps failing (last error: %s)", MaxOnErrorDepth, rd.target, rd.err)
		}
		*st = step{} // the failed step's emits are dropped
		var tmpl *text
		if isPongo(rd.target) {
			t, err := r.m.inlinePrompt(rd.target)
			if err != nil {
				return fmt.Errorf("on_error target %q: %w", rd.target, err)
			}
			tmpl = t
		}
		res, err := r.resolveTarget(ctx, rd.from, rd.target, tmpl)
		if err != nil {
			return fmt.Errorf("on_error target %q: %w", rd.target, err)
		}
		if res.stay {
			// on_error: "." — stop the chain, stay put, no re-entry.
			break
		}
		// A step that had already reached an exit or terminal state is
		// taken back: the failure is handled by the redirect, as declared.
		r.ended, r.outcome, r.exit = false, "", ""
		from := ""
		if r.cur != nil {
			from = r.cur.Path
		}
		if err := r.emit(KindOnErrorRedirect, map[string]any{"from": from, "to": res.describe(), "error": rd.err}); err != nil {
			return err
		}
		r.note(Note{Kind: "on_error", State: from, Text: "on_error → " + res.describe(), Error: rd.err})
		if err := r.goTo(ctx, res, true, st); err != nil {
			return err
		}
	}
	if r.ended {
		return nil
	}
	return r.dispatchEmits(ctx, st.emits, depth)
}

// dispatchCalls dispatches queued host calls in order, each with r.cur and
// r.slots set to what they were when the chain reached it, so its with:
// sees the world as left by the calls before it and its trace events are
// credited to its state. The first failure with on_error stops the queue
// and returns the redirect.
func (r *runner) dispatchCalls(ctx context.Context, calls []pendingCall) (*redirect, error) {
	cur, slots := r.cur, r.slots
	defer func() { r.cur, r.slots = cur, slots }()
	for _, pc := range calls {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("run interrupted: %w", err)
		}
		r.cur, r.slots = pc.state, pc.slots
		rd, err := r.invoke(ctx, pc.e)
		if err != nil || rd != nil {
			return rd, err
		}
	}
	return nil, nil
}

func (r *runner) dispatchEmits(ctx context.Context, emits []pendingEmit, depth int) error {
	for _, pe := range emits {
		if r.ended {
			return nil
		}
		env := r.env(pe.slots, nil)
		if pe.e.When != nil {
			ok, err := pe.e.When.eval(env)
			if err != nil {
				return fmt.Errorf("%s: emit_intent %w", pe.e.Pos, err)
			}
			if !ok {
				continue
			}
		}
		v, err := pe.e.Emit.render(env)
		if err != nil {
			return fmt.Errorf("%s: emit_intent: %w", pe.e.Pos, err)
		}
		name := strings.TrimSpace(toString(v))
		if name == "" {
			continue
		}
		slots := map[string]any{}
		for _, s := range pe.e.Slots {
			sv, err := s.Value.render(env)
			if err != nil {
				return fmt.Errorf("%s: slots.%s: %w", pe.e.Pos, s.Key, err)
			}
			slots[s.Key] = sv
		}
		if depth+1 > MaxEmitDepth {
			return fmt.Errorf("%s: emit_intent %q: synthetic intent depth cap %d exceeded (a chain of emit_intent effects keeps re-firing)", pe.e.Pos, name, MaxEmitDepth)
		}
		if err := r.emit(KindEmitIntent, map[string]any{"intent": name, "slots": slots, "depth": depth + 1}); err != nil {
			return err
		}
		r.note(Note{Kind: "emit", State: r.cur.Path, Text: name + slotText(slots)})
		if err := r.fire(ctx, name, slots, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// fire handles one intent at the current state.
func (r *runner) fire(ctx context.Context, intent string, slots map[string]any, depth int) error {
	if slots == nil {
		slots = map[string]any{}
	}
	arms, owner := r.lookup(intent)
	if arms == nil {
		avail := r.available(r.cur)
		_ = r.emit(KindValidationFailed, map[string]any{"code": "INTENT_NOT_ALLOWED_IN_STATE", "intent": intent, "state": r.cur.Path,
			"message": "no handler for intent"})
		return fmt.Errorf("intent %q is not handled in state %q (it handles: %s)", intent, r.cur.Path, listOrNone(avail))
	}
	r.slots = slots
	env := r.env(slots, nil)
	var arm *Transition
	var hint string
	for _, a := range arms {
		if a.Default || a.When == nil {
			arm = a
			break
		}
		ok, err := a.When.eval(env)
		if err != nil {
			return fmt.Errorf("%s: intent %q: %w", a.Pos, intent, err)
		}
		if ok {
			arm = a
			break
		}
		if hint == "" {
			hint = a.When.src
			if a.Hint != "" {
				hint = a.Hint
			}
		}
	}
	if arm == nil {
		_ = r.emit(KindGuardRejected, map[string]any{"intent": intent, "state": r.cur.Path, "guard": hint})
		return fmt.Errorf("intent %q in state %q: every guard failed (first: %s)", intent, r.cur.Path, hint)
	}
	if err := r.emit(KindIntentAccepted, map[string]any{"intent": intent, "slots": slots}); err != nil {
		return err
	}
	var st step
	if err := r.runEffects(ctx, arm.Effects, &st); err != nil {
		return err
	}
	res, err := r.resolveTarget(ctx, owner, "", arm.Target)
	if err != nil {
		return fmt.Errorf("%s: intent %q: %w", arm.Pos, intent, err)
	}
	if err := r.emit(KindTransition, map[string]any{"from": r.cur.Path, "intent": intent, "slots": slots, "to": res.describeFrom(r.cur)}); err != nil {
		return err
	}
	if !res.stay {
		if err := r.goTo(ctx, res, false, &st); err != nil {
			return err
		}
	}
	return r.settle(ctx, &st, depth)
}

// lookup finds the handler list for intent on the leaf, then its ancestors
// (intent name first, then "*"). A level that has handlers is final.
func (r *runner) lookup(intent string) ([]*Transition, *State) {
	for s := r.cur; s != nil; s = s.Parent {
		if arms, ok := s.On[intent]; ok && len(arms) > 0 {
			return arms, s
		}
		if arms, ok := s.On["*"]; ok && len(arms) > 0 {
			return arms, s
		}
	}
	return nil, nil
}

func (r *runner) available(s *State) []string {
	seen := map[string]bool{}
	var out []string
	for ; s != nil; s = s.Parent {
		for k := range s.On {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// target is a resolved transition target.
type target struct {
	stay  bool
	exit  string // @exit:<name>
	state *State
}

func (t target) describe() string {
	switch {
	case t.exit != "":
		return "__exit__" + t.exit
	case t.state != nil:
		return t.state.Path
	}
	return "."
}

func (t target) describeFrom(cur *State) string {
	if t.stay && cur != nil {
		return cur.Path
	}
	return t.describe()
}

// resolveTarget resolves a literal target string (lit) or a compiled
// (possibly templated) one relative to the declaring state.
func (r *runner) resolveTarget(ctx context.Context, owner *State, lit string, t *text) (target, error) {
	s := lit
	if t != nil {
		v, err := t.render(r.env(r.slots, nil))
		if err != nil {
			return target{}, fmt.Errorf("target %q: %w", t.src, err)
		}
		s = v
	}
	s = strings.TrimSpace(s)
	if s == "" || s == "." {
		return target{stay: true}, nil
	}
	if name, ok := strings.CutPrefix(s, "@exit:"); ok {
		if len(r.m.Exits) > 0 && !r.m.Exits[name] {
			return target{}, fmt.Errorf("target @exit:%s: the story declares no exit %q (list it under exits)", name, name)
		}
		return target{exit: name}, nil
	}
	path, err := resolvePath(owner, s)
	if err != nil {
		return target{}, err
	}
	st := r.m.States[path]
	if st == nil {
		return target{}, fmt.Errorf("target %q resolves to %q, which is not a state", s, path)
	}
	return target{state: st}, nil
}

// resolvePath applies the target forms of reference §4.3: `../x` is relative
// to the declaring state, anything else is absolute (slashes become dots).
func resolvePath(owner *State, s string) (string, error) {
	s = strings.ReplaceAll(s, "/", ".")
	if !strings.HasPrefix(s, "..") {
		return s, nil
	}
	var segs []string
	if owner != nil {
		segs = strings.Split(owner.Path, ".")
	}
	rest := s
	for strings.HasPrefix(rest, "..") {
		rest = strings.TrimPrefix(rest, "..")
		rest = strings.TrimPrefix(rest, ".")
		if len(segs) == 0 {
			return "", fmt.Errorf("target %q climbs above the top level", s)
		}
		segs = segs[:len(segs)-1]
	}
	if rest != "" {
		segs = append(segs, rest)
	}
	if len(segs) == 0 {
		return "", fmt.Errorf("target %q names no state", s)
	}
	return strings.Join(segs, "."), nil
}

// goTo moves the machine to a resolved target: exit states up to the common
// ancestor, enter down to the target, descend initial:, running on_enter at
// each entered level. forceReentry re-enters the target even when it is the
// current state (on_error redirects, explicit self targets).
func (r *runner) goTo(ctx context.Context, t target, forceReentry bool, st *step) error {
	if t.exit != "" {
		for _, k := range r.m.ExitRequires[t.exit] {
			if isEmpty(getPath(r.world, k)) {
				return fmt.Errorf("@exit:%s requires world.%s to be set (exits.%s.requires), but it is empty", t.exit, k, t.exit)
			}
		}
		for s := r.cur; s != nil; s = s.Parent {
			if err := r.emitAt(s.Path, KindStateExited, map[string]any{"state": s.Path}); err != nil {
				return err
			}
		}
		exitPath := "__exit__" + t.exit
		if err := r.emitAt(exitPath, KindStateEntered, map[string]any{"state": exitPath}); err != nil {
			return err
		}
		r.note(Note{Kind: "end", State: exitPath, Text: "exit " + t.exit})
		r.ended, r.outcome, r.exit = true, OutcomeExit, t.exit
		return nil
	}
	dst := t.state
	// common ancestor: the deepest state that contains both; a target that
	// is the current leaf or one of its ancestors is re-entered.
	anc := commonAncestor(r.cur, dst)
	if anc == dst {
		anc = dst.Parent
	}
	for s := r.cur; s != nil && s != anc; s = s.Parent {
		if err := r.emitAt(s.Path, KindStateExited, map[string]any{"state": s.Path}); err != nil {
			return err
		}
	}
	_ = forceReentry
	return r.enterFrom(ctx, anc, dst, st)
}

func commonAncestor(a, b *State) *State {
	depth := map[*State]bool{}
	for s := a; s != nil; s = s.Parent {
		depth[s] = true
	}
	for s := b; s != nil; s = s.Parent {
		if depth[s] {
			return s
		}
	}
	return nil
}

// enterFrom enters every level from below anc down to dst, then descends
// dst's initial: chain. Each entered level runs its on_enter.
func (r *runner) enterFrom(ctx context.Context, anc, dst *State, st *step) error {
	var chain []*State
	for s := dst; s != nil && s != anc; s = s.Parent {
		chain = append(chain, s)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		if err := r.enterOne(ctx, chain[i], st); err != nil {
			return err
		}
	}
	for s := dst; len(s.Children) > 0; {
		child, err := r.initialChild(s)
		if err != nil {
			return err
		}
		if err := r.enterOne(ctx, child, st); err != nil {
			return err
		}
		s = child
	}
	if r.cur != nil && r.cur.Terminal && len(r.cur.Children) == 0 {
		r.note(Note{Kind: "end", State: r.cur.Path, Text: "terminal " + r.cur.Path})
		r.ended, r.outcome = true, OutcomeTerminal
	}
	return nil
}

func (r *runner) enterOne(ctx context.Context, s *State, st *step) error {
	r.cur = s
	if err := r.emitAt(s.Path, KindStateEntered, map[string]any{"state": s.Path}); err != nil {
		return err
	}
	if len(s.Children) == 0 {
		r.note(Note{Kind: "enter", State: s.Path, Text: s.Path})
	}
	return r.runEffects(ctx, s.OnEnter, st)
}

func (r *runner) initialChild(s *State) (*State, error) {
	if s.Initial == nil {
		return nil, fmt.Errorf("%s: compound state %q has no initial: child to enter", s.Pos, s.Path)
	}
	name, err := s.Initial.render(r.env(r.slots, nil))
	if err != nil {
		return nil, fmt.Errorf("%s: initial of %q: %w", s.Pos, s.Path, err)
	}
	name = strings.TrimSpace(name)
	for _, c := range s.Children {
		if c.Name == name {
			return c, nil
		}
	}
	return nil, fmt.Errorf("%s: initial %q of %q names no child state", s.Pos, name, s.Path)
}

// env builds the expression/template environment.
func (r *runner) env(slots map[string]any, extra map[string]any) map[string]any {
	ce := r.callEnv()
	ce.Slots = slots
	env := callEnv(r.m.Dir, ce)
	for k, v := range extra {
		env[k] = v
	}
	return env
}

// callEnv is the environment of the current step (world, slots, state).
func (r *runner) callEnv() CallEnv {
	ce := CallEnv{World: r.world, Slots: r.slots, RunID: r.opts.SessionID, Turn: r.turn}
	if r.cur != nil {
		ce.StatePath = r.cur.Path
		ce.StateDescription = r.cur.Description
	}
	return ce
}

func (r *runner) emit(kind string, payload any) error {
	sp := ""
	if r.cur != nil {
		sp = r.cur.Path
	}
	return r.emitAt(sp, kind, payload)
}

func (r *runner) emitAt(statePath, kind string, payload any) error {
	if r.opts.Sink == nil {
		return nil
	}
	if err := r.opts.Sink.Emit(Event{Turn: r.turn, Kind: kind, StatePath: statePath, TS: r.now(), Payload: payload}); err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	return nil
}

func (r *runner) now() time.Time {
	if r.opts.Now != nil {
		return r.opts.Now()
	}
	return time.Now()
}

func (r *runner) note(n Note) {
	if r.opts.Notes != nil {
		r.opts.Notes(n)
	}
}

func slotText(s map[string]any) string {
	if len(s) == 0 {
		return ""
	}
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%v", k, s[k])
	}
	return b.String()
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "no intents"
	}
	return strings.Join(xs, ", ")
}

func toString(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	default:
		return fmt.Sprint(t)
	}
}
