package engine

import (
	"context"
	"maps"
	"time"

	"kitsoki/pkg/host"
)

// Caps of reference §5.2.
const (
	maxEmitDepth    = 24 // measured (story-runtime §1.9), not the documented 8
	maxOnErrorDepth = 4
)

type runner struct {
	live  context.Context // the running session call's (renderbudget.go's within)
	m     *Machine
	so    SessionOptions // its Options are the run's
	world World
	place
	turn  int64
	slots map[string]any
	// listenerGone: a turn rested the session in a terminal state; no job
	// completion lands after (conformance storymut-terminal-listener-gone)
	listenerGone bool
	// turnExited: a user turn took an exit; no job posts a notification
	// after. An exit a job's on_complete hop took does not count
	// (conformance oncomplete-exit-hop-notice).
	turnExited bool
	calls      []CallSummary
	// bugs are the run's handler panics (handlerpanic.go)
	bugs   *bugLog
	agentN map[string]int // per turn+state agent call counter
	// agentUsed maps a call id to the alias that served it (agent_alias.go).
	agentUsed map[string]string
	// turnState is the state at the start of the turn, its events'
	// state_path.
	turnState string
	// phaseState is the state the last user turn began at, rejected or
	// not: host cassettes match phase against it (trace-eval.md B.2), a
	// timeout's or a job's turn leaving it as it was, and it is empty
	// before the first user turn of a placed (flow rig) session
	// (conformance cassette-phase-last-user-turn).
	phaseState string
	clock      Clock
	hosts      *host.Registry
	jobs       *jobStore
	inbox      *inboxStore
	jobCtx     context.Context
	timer      *armedTimeout
	// written is how each world key was last written since the previous
	// turn began ("set" or "increment"); journal the value the log gives a
	// key whose world value differs (replay.go)
	written map[string]string
	journal map[string]any
	logged  map[string]any // each key's value as the log last gave it (lostSet)
	t       turn           // the turn being run (turn.go)
	// heldCap and landCap bound what job completions landing together
	// keep and how many land: maxLandHeld and maxLandJobs, lowered by
	// tests to reach them
	heldCap, landCap int
	chain            inputChain // what landed since the last user turn
	// gapLanded: a completion landed between turns since the last user
	// turn; on a virtual clock no other lands before the next one
	// (landBetween)
	gapLanded bool
}

func newRunner(m *Machine, o SessionOptions) *runner {
	r := &runner{m: m, so: o, agentN: map[string]int{}, agentUsed: map[string]string{}, clock: o.Clock, hosts: o.Hosts, t: newTurn(), heldCap: maxLandHeld, landCap: maxLandJobs}
	if r.clock == nil {
		r.clock = funcClock(time.Now) // the wall clock
		if o.Now != nil {
			r.clock = funcClock(o.Now)
		}
	}
	if r.hosts == nil {
		r.hosts = defaultHosts()
	}
	r.jobs = &jobStore{byID: map[string]*job{}, notify: make(chan struct{}), now: r.clock.Now}
	_, r.jobs.virtual = r.clock.(*VirtualClock)
	r.inbox = &inboxStore{}
	r.bugs = &bugLog{}
	if o.World != nil {
		r.world = o.World
	} else {
		w, _ := InitWorld(m.World, nil, nil)
		r.world = w
	}
	r.seed(r.world)
	return r
}

// funcClock adapts a function (Options.Now, time.Now) to Clock.
type funcClock func() time.Time

func (f funcClock) Now() time.Time { return f() }

// place is where the machine rests; a swallowed chain, a dropped
// on_complete move and a turn-fatal error put it back.
type place struct {
	cur     *State   // current leaf (a parallel configuration: the region leaf in focus); nil after an exit
	par     *parConf // the active parallel configuration, nil outside one
	ended   bool
	outcome string
	exit    string
}

// cloned is p with a configuration of its own.
func (p place) cloned() place {
	p.par = p.par.clone()
	return p
}

// saved is what a turn-fatal error restores.
type saved struct {
	world World
	place
	// the replay's record of the keys written so far (replay.go)
	written map[string]string
	journal map[string]any
}

func (r *runner) save() saved {
	return saved{world: r.world.Snapshot(), place: r.place.cloned(), written: maps.Clone(r.written), journal: maps.Clone(r.journal)}
}

// restore undoes what was written since s; what the turn wrote before it
// stays written for the next turn's replay (a discarded post-bind round
// keeps the binds before it: conformance postbind-discard-replays).
func (r *runner) restore(s saved) {
	r.world, r.place = s.world, s.place
	r.written, r.journal = maps.Clone(s.written), maps.Clone(s.journal)
}
