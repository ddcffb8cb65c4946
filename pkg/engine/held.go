package engine

// heldWalk holds the events a transition's walk writes while it runs and
// gives them back in upstream's order (story-runtime §1.8): the
// machine.transition first, then every effect event (the transition's own,
// then each entered on_enter's) in the order written, then the
// state_exited and state_entered events in the order written — each move's
// exits then its entries, the moves of regions that an emit: reached
// before the arm's own (conformance p9, par-emit-order). The zero value
// holds nothing.
type heldWalk struct {
	on    bool
	head  *Event
	effs  []Event
	moves []Event
}

// start makes add hold events until stop.
func (h *heldWalk) start() { h.on = true }

// stop ends holding; the held events wait for take.
func (h *heldWalk) stop() { h.on = false }

// add holds ev while holding and reports whether it did.
func (h *heldWalk) add(ev Event) bool {
	if !h.on {
		return false
	}
	if ev.Kind == KindStateExited || ev.Kind == KindStateEntered {
		h.moves = append(h.moves, ev)
	} else {
		h.effs = append(h.effs, ev)
	}
	return true
}

// setHead sets the walk's machine.transition, written first whenever it
// was set.
func (h *heldWalk) setHead(ev Event) { h.head = &ev }

// take returns the held events in upstream's order and empties h.
func (h *heldWalk) take() []Event {
	all := make([]Event, 0, len(h.effs)+len(h.moves)+1)
	if h.head != nil {
		all = append(all, *h.head)
	}
	all = append(all, h.effs...)
	all = append(all, h.moves...)
	h.head, h.effs, h.moves = nil, nil, nil
	return all
}
