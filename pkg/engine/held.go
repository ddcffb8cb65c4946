package engine

// heldWalk holds the events a transition's walk writes and gives them back
// in upstream's order (story-runtime §1.8): the machine.transition, the
// effect events, each region an emit: reached as a group, then the walk's
// own exits and entries (conformance p9, par-emit-order,
// storymut-emit-region-groups). The zero value holds nothing.
type heldWalk struct {
	on    bool
	head  *Event
	effs  []Event
	moves []Event
	recv  []Event // the groups of the regions an emit: reached
}

// heldMark is where a region an emit: reached starts in the held events.
type heldMark struct{ effs, moves int }

// mark notes where the next receiving region's events start.
func (h *heldWalk) mark() heldMark { return heldMark{len(h.effs), len(h.moves)} }

// group takes the events held since m (a region an emit: reached: its
// effect events, then its moves) as one group.
func (h *heldWalk) group(m heldMark) {
	if !h.on || m.effs > len(h.effs) || m.moves > len(h.moves) {
		return
	}
	h.recv = append(append(h.recv, h.effs[m.effs:]...), h.moves[m.moves:]...)
	h.effs, h.moves = h.effs[:m.effs], h.moves[:m.moves]
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
	all := make([]Event, 0, len(h.recv)+len(h.effs)+len(h.moves)+1)
	if h.head != nil {
		all = append(all, *h.head)
	}
	all = append(all, h.effs...)
	all = append(all, h.recv...)
	all = append(all, h.moves...)
	h.head, h.effs, h.recv, h.moves = nil, nil, nil, nil
	return all
}
