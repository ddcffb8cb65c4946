package engine

// pendingCall is a host call queued while the machine walks a step, with the
// state whose chain reached it (trace events are credited to it) and the
// slots then in force.
type pendingCall struct {
	e     *Effect
	state *State
	slots map[string]any
	// world is the snapshot at the invoke's place in the chain, the
	// foreground with:'s (overlayBatch); nil: the live world.
	world World
}

// step collects what one machine step queues: host calls to dispatch after
// the walk, and the emit_intent hops its chain decided.
type step struct {
	calls []pendingCall
	emits []pendingEmit
	binds bool // an invoke the walk reached has a bind (machineView)
}

// redirect is an on_error redirect waiting to happen: the failed call's
// effect (whose on_error: it takes) and the failure.
type redirect struct {
	e   *Effect
	err string
}
