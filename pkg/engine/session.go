package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/host"
)

// SessionOptions configure a Session (ENGINE-SEAMS.md seam 2).
type SessionOptions struct {
	Options
	// StartState is where the session starts: "" = the story's root; a
	// dotted path (a compound descends its initial:) or an encoded
	// parallel path "p#p.a.x|p.b.y" (story-runtime.md §3.2).
	StartState string
	// StartFlat rests the session on StartState as named, without
	// descending a compound's initial:, as upstream's flow rig seeds a
	// fixture's initial_state (conformance start-flat).
	StartFlat bool
	// UnarmedStart leaves the start state's timeout unarmed until a turn
	// lands somewhere (a fixture without initial_state, story-runtime.md
	// §4). Ignored with Bootstrap.
	UnarmedStart bool
	// Seeded names the world keys the caller seeded (a flow fixture's
	// initial_world): they replay like any set. Ignored with Bootstrap.
	Seeded []string
	// Bootstrap runs turn 0 (session.story, world overrides, the on_enter
	// chain from the root to the start leaf), as kitsoki run does
	// (story-runtime.md §0).
	Bootstrap bool
	// Hosts serves every host call that is not an agent verb; nil = the
	// engine's defaults.
	Hosts *host.Registry
	// Clock drives timeouts and background completions; nil = wall clock.
	// A *VirtualClock only moves through Advance.
	Clock Clock
	// WorkDir is the run's working directory handed to host handlers.
	WorkDir string
	// Views renders the resting state's view at the end of each turn
	// (turn.end.view); nil = no views.
	Views ViewRenderer
	// Mode is the execution mode: "" or ModeOneShot, or ModeStaged
	// (emit chains stop at decision gates, story-runtime §1.9).
	Mode string
	// MachineOnly runs turns as upstream's state machine alone (the flow
	// rig's legacy path, flow-format.md §1.3): host invocations are written
	// (harness.called) but never dispatched, and no post-bind pass runs.
	MachineOnly bool
}

// ViewRenderer renders a state's view (seam 4; pkg/view implements it).
type ViewRenderer interface {
	RenderView(statePath string, world map[string]any, extra map[string]any) (string, error)
}

// Rejection is an intent the current state cannot take (story-runtime.md
// §1.4). It is an answer, not a failure of the session.
type Rejection struct {
	Code         string // INTENT_NOT_ALLOWED_IN_STATE, MISSING_SLOTS, INVALID_SLOT_VALUE, GUARD_FAILED
	Message      string
	Intent       string
	State        string
	GuardHint    string
	MissingSlots []string
	Allowed      []string
}

func (r *Rejection) Error() string { return r.Message }

// Rejection codes: the values of [Rejection.Code], one per reason a turn
// is refused before anything runs.
const (
	CodeNotAllowed   = "INTENT_NOT_ALLOWED_IN_STATE"
	CodeMissingSlots = "MISSING_SLOTS"
	CodeInvalidSlot  = "INVALID_SLOT_VALUE"
	CodeGuardFailed  = "GUARD_FAILED"
)

// Turn is what one Fire or Advance did.
type Turn struct {
	Number int64 // the last turn number used (synthetic turns of an Advance included)
	Events []Event
	State  string
	View   string
	// RigView: View is the render upstream leaves to its flow rig
	// (turn.end has no view there): a rig that advances the clock after
	// the turn renders the resting state again afterwards (conformance
	// rig-view-after-advance)
	RigView   bool
	Rejection *Rejection
	// Err is a turn-fatal error (story-runtime.md §1.12): state and world
	// are left as they were before the turn.
	Err error
	// held is what the turns merged into this one keep (landheld.go)
	held int
	// counted: merge counts the merged turns' events without keeping
	// them (AdvanceClock)
	counted bool
}

// JobInfo describes one background job.
type JobInfo struct {
	ID        string         `json:"id"`
	Namespace string         `json:"namespace"`
	Status    string         `json:"status"` // running, awaiting_input, done, failed, cancelled
	State     string         `json:"state"`  // origin state
	Error     string         `json:"error,omitempty"`
	Question  string         `json:"question,omitempty"`
	Result    map[string]any `json:"result,omitempty"`
	Submitted time.Time      `json:"submitted"`
	Ended     time.Time      `json:"ended,omitzero"`
	// Seq orders jobs by creation.
	Seq int `json:"-"`
	// Unstored: upstream's job store holds no row for the job, since its
	// arguments hold NaN or an infinity, which the store's JSON cannot
	// encode (the job still runs and lands): expect_jobs does not see it,
	// a clarification it asks for fails, and answering it finds no job
	// (conformance job-args-non-finite).
	Unstored bool `json:"-"`
}

// Job statuses: the values of [JobInfo.Status].
const (
	JobRunning   = "running"
	JobAwaiting  = "awaiting_input"
	JobDone      = "done"
	JobFailed    = "failed"
	JobCancelled = "cancelled"
)

// InboxItem is one notification of the run's inbox.
type InboxItem struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Body     string `json:"body,omitempty"`
	Severity string `json:"severity"` // info, success, warn, error, action_required
	Thread   string `json:"thread,omitempty"`
	State    string `json:"state,omitempty"`
	JobID    string `json:"job_id,omitempty"`
	Read     bool   `json:"read"`
}

// Session is a story being run turn by turn. Its methods are safe for
// concurrent use (they serialise on the session).
type Session struct {
	mu   sync.Mutex
	r    *runner
	stop context.CancelFunc // cancels the background jobs' context
}

// Start builds a session at o.StartState (or the root) and, with
// o.Bootstrap, runs turn 0. A failed bootstrap returns the session (so its
// world and events can be read) together with the error.
func Start(ctx context.Context, m *Machine, o SessionOptions) (*Session, error) {
	if m == nil {
		return nil, errors.New("engine.Start: no machine")
	}
	r := newRunner(m, o)
	jctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	s := &Session{r: r, stop: stop}
	r.jobCtx = jctx
	defer r.within(ctx)()
	return s, r.start(ctx)
}

// Fire runs one explicit-intent turn. A rejected intent is Turn.Rejection
// (the error is nil); a turn-fatal error is Turn.Err and leaves the
// session as it was. The error return is for a session that cannot go on
// (a trace that cannot be written).
func (s *Session) Fire(ctx context.Context, in Input) (*Turn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.r.within(ctx)()
	if err := s.r.landBetween(ctx); err != nil {
		return nil, err
	}
	s.r.gapLanded = false
	gone := s.r.listenerGone
	t, err := s.r.userTurn(ctx, in)
	if err != nil || !gone || t == nil || len(t.Events) == 0 {
		// a turn that writes no event (a required slot missing) ends
		// nothing upstream's listener waits on: the heard jobs land with
		// a later turn or advance (conformance terminal-heard-no-event-turn)
		return t, err
	}
	return t, s.r.landHeard(ctx)
}

// Land lands what upstream's job listener lands between the turns, as Fire
// does first; a caller reading the state a user turn starts from calls it
// before reading.
func (s *Session) Land(ctx context.Context) error {
	return locked(s, func(r *runner) error {
		defer r.within(ctx)()
		return r.landBetween(ctx)
	})
}

// Advance moves a virtual clock by d, firing in time order every timeout
// and background completion that falls due (flow-format.md §5.2). d <= 0
// does nothing. It never sleeps.
func (s *Session) Advance(ctx context.Context, d time.Duration) (*Turn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	vc, ok := s.r.clock.(*VirtualClock)
	if !ok {
		return nil, errors.New("engine: Advance needs a virtual clock (SessionOptions.Clock = NewVirtualClock)")
	}
	defer s.r.within(ctx)()
	return s.r.advance(ctx, vc, d, false)
}

// AdvanceClock is Advance for a caller that reads none of the turn: the
// events of the timeouts and completions that land go to the trace and
// the observers only, not into one Turn held until the advance ends (a
// 10,000-job landing held them all). What they would keep is still
// counted against the landing's bound, so it stops where Advance does.
func (s *Session) AdvanceClock(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	vc, ok := s.r.clock.(*VirtualClock)
	if !ok {
		return errors.New("engine: AdvanceClock needs a virtual clock (SessionOptions.Clock = NewVirtualClock)")
	}
	defer s.r.within(ctx)()
	_, err := s.r.advance(ctx, vc, d, true)
	return err
}

// State is the session's state path ("a.b", a parallel "p#p.a.x|p.b.y",
// or "__exit__<name>" after an exit).
func (s *Session) State() string { return locked(s, (*runner).statePath) }

// locked returns f of the session's runner, under the session's lock.
func locked[T any](s *Session, f func(*runner) T) T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return f(s.r)
}

// World returns a snapshot of the world as the next turn will find it
// (replayedWorld).
func (s *Session) World() map[string]any { return locked(s, (*runner).replayedWorld) }

// replayedWorld is a snapshot of the world in its replayed shape, the
// seeded keys in place: what the next turn (and the flow rig) reads.
func (r *runner) replayedWorld() World {
	w := World(r.world.Snapshot())
	if r.replays() {
		r.replayInto(w)
	}
	r.seed(w)
	return w
}

// Terminal reports whether the resting state (the parallel root for a
// parallel path) is terminal or an exit.
func (s *Session) Terminal() bool { return locked(s, func(r *runner) bool { return r.ended }) }

// Jobs lists the background jobs in creation order.
func (s *Session) Jobs() []JobInfo {
	return locked(s, func(r *runner) []JobInfo { return r.jobs.list() })
}

// Inbox lists the run's notifications in arrival order.
func (s *Session) Inbox() []InboxItem {
	return locked(s, func(r *runner) []InboxItem { return r.inbox.list() })
}

// Available lists the intents the resting state handles.
func (s *Session) Available() []string { return locked(s, (*runner).allowedNext) }

// Wait waits (real clock) until no background job is running, applying
// each completion as its own turn, or until ctx ends. Jobs waiting for a
// clarification answer do not hold it up.
func (s *Session) Wait(ctx context.Context) error {
	if s.r.jobs.virtual {
		if n, _ := s.r.jobs.pending(); n > 0 {
			return fmt.Errorf("engine: %d background job(s) run on the virtual clock: Advance it instead of waiting", n)
		}
		return nil
	}
	for {
		s.mu.Lock()
		err := s.r.drainJobs(ctx)
		running, ch := s.r.jobs.pending()
		s.mu.Unlock()
		if err != nil {
			return err
		}
		if running == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// Close cancels running background jobs and releases the session.
func (s *Session) Close() error {
	s.stop()
	s.r.jobs.wg.Wait()
	return nil
}

// statePath is the encoded current state.
func (r *runner) statePath() string {
	switch {
	case r.ended && r.outcome == OutcomeExit:
		return "__exit__" + r.exit
	case r.par != nil:
		return r.par.encode()
	case r.cur != nil:
		return r.cur.Path
	}
	return ""
}

// ExitState reports whether path names a state __exit__NAME the story's
// loader makes, one for each exit an arm's or a timeout's written
// "@exit:NAME" names (story-runtime §1.11): a state a fixture can name,
// terminal. An exit no arm leads to, another story's exit and an
// undeclared one make none (conformance exit-state-terminal).
func (m *Machine) ExitState(path string) bool {
	name, ok := strings.CutPrefix(path, "__exit__")
	return ok && m.States[path] == nil && m.exitStates[name]
}

// isExitPath reports whether path is an exit's encoded state
// (__exit__NAME), which the story holds no state for.
func (r *runner) isExitPath(path string) bool {
	return strings.HasPrefix(path, "__exit__") && r.m.States[path] == nil
}

// placeAt resolves SessionOptions.StartState to a leaf (or a parallel
// configuration) without running any on_enter (story-runtime.md §0).
func (r *runner) placeAt(spec string) error {
	if root, leaves, ok := strings.Cut(spec, "#"); ok {
		if p := r.m.States[root]; r.so.StartFlat && (p == nil || !p.Parallel) {
			r.placeOddRoot(spec, root, leaves, p) // oddroot.go
			return nil
		}
		return r.placeParallel(spec, root, leaves, r.so.StartFlat, false)
	}
	st := r.m.States[strings.ReplaceAll(spec, "/", ".")]
	if st == nil && r.so.StartFlat {
		st = r.unknownLeaf(spec, nil) // unknownstart.go
	}
	if st == nil {
		return fmt.Errorf("start state %q is not a state of the story", spec)
	}
	if r.so.StartFlat {
		r.cur, r.par = st, nil
		return nil
	}
	return r.placeDescend(st)
}

// placeParallel rests the machine on the parallel configuration spec
// (root#leaves) without running any on_enter: a flow's start, or an
// on_error path climbed from a configuration (conformance
// on-error-climb-parallel). flat keeps entries the story does not hold
// (unknownstart.go); sorted reads the entries sorted, as the legacy rig
// reads a start path (a region's leaf listed last in that order holds
// its place).
func (r *runner) placeParallel(spec, root, leaves string, flat, sorted bool) error {
	p := r.m.States[root]
	if p == nil || !p.Parallel {
		return fmt.Errorf("start state %q: %q is not a parallel state", spec, root)
	}
	pc := &parConf{root: p, listed: spec}
	// each entry as written: upstream trims no space, and turns no "/"
	// into "." (conformance par-start-entry-forms)
	entries := strings.Split(leaves, "|")
	if sorted {
		slices.Sort(entries)
	}
	for _, l := range entries {
		st := r.m.States[l]
		if flat && (st == nil || !st.within(p)) {
			// a state outside p (a stray a receiver left there:
			// conformance par-start-outside-state) is an entry in no
			// region, as an unknown one
			st = r.unknownLeaf(l, p) // unknownstart.go
			if st == nil {
				// in no region; an empty entry (p#a|, p# alone) too
				st = outsideLeaf(l)
			}
		} else if st == nil || !st.within(p) {
			return fmt.Errorf("start state %q: %q is not a state inside %q", spec, l, root)
		}
		// every entry is kept until the first move: one in no
		// region, a region's second leaf, a repeat
		pc.leaves = append(pc.leaves, st)
	}
	pc.placeListed()
	if len(pc.leaves) == 0 {
		return fmt.Errorf("start state %q names no leaf of %q", spec, root)
	}
	// a region the path does not name has no leaf, as upstream
	// decodes the path (conformance par-start-regions-named)
	r.par, r.cur = pc, pc.leaves[0]
	if !r.so.MachineOnly && len(pc.leaves) == strings.Count(leaves, "|")+1 {
		// the orchestrator keeps the path as written until the machine
		// moves; the legacy path prints its own encoding
		pc.label = spec
	}
	return nil
}

// placeDescend rests the machine on st, descending initial: (and into
// parallel regions) without running on_enter.
func (r *runner) placeDescend(st *State) error {
	if st.Parallel {
		return r.placeRegions(&parConf{root: st})
	}
	leaf, err := r.initialLeaf(st)
	if err != nil {
		return err
	}
	if leaf.Parallel {
		return r.placeDescend(leaf)
	}
	r.cur, r.par = leaf, nil
	return nil
}

// placeRegions rests the machine on the parallel configuration pc, each
// region pc has no leaf in at its initial leaf (no on_enter run).
func (r *runner) placeRegions(pc *parConf) error {
	for _, reg := range pc.root.regions() {
		if pc.leafIn(reg) == nil {
			leaf, err := r.initialLeaf(reg)
			if err != nil {
				return err
			}
			pc.set(leaf)
		}
	}
	r.par, r.cur = pc, pc.leaves[0]
	return nil
}

// initialLeaf follows initial: from s down to a leaf (or a parallel state).
func (r *runner) initialLeaf(s *State) (*State, error) {
	for len(s.Children) > 0 && !s.Parallel {
		c, err := r.initialChild(s)
		if err != nil {
			return nil, err
		}
		if c == nil {
			return s, nil
		}
		s = c
	}
	return s, nil
}

// Override patches world keys between turns (a flow's world_override:,
// flow-format §3.1): it uses up a turn number and writes no event, but the
// keys replay as if set. A dotted key is one flat key.
func (s *Session) Override(ctx context.Context, kv map[string]any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range slices.Sorted(maps.Keys(kv)) {
		setPath(s.r.world, k, jsonvalue.Normalize(kv[k]))
		s.r.journalAs(k, nil, false)
		s.r.noteWritten(map[string]any{"set": map[string]any{k: nil}})
	}
	s.r.turn++
	return nil
}
