package engine

import (
	"reflect"
	"slices"
)

// A job's on_complete chain whose dispatch upstream fails (a failure's
// on_error naming no state, dispatchSynthetic) never writes the calls'
// binds, last_error and host_error, yet its machine holds them for the
// rest of the chain: the target entry's when: and template, and the
// target's landing (its on_enter, emit hops and once: checks) read them.
// Only what the landing writes itself is kept (conformance
// oncomplete-dropped-binds-in-memory).

// droppedWrites is what a dropped dispatch had written over pre: the keys
// it set or changed, at their written values.
func (r *runner) droppedWrites(pre World) World {
	lost := World{}
	for k, v := range r.world {
		if pv, ok := pre[k]; !ok || !reflect.DeepEqual(pv, v) {
			lost[k] = v
		}
	}
	return lost
}

// holdDropped lays lost over the world in memory, with no event, and
// returns what takes back each key no world.update wrote since.
func (r *runner) holdDropped(lost World) (restore func()) {
	if len(lost) == 0 {
		return func() {}
	}
	before := map[string]any{}
	for k, v := range lost {
		if pv, ok := r.world[k]; ok {
			before[k] = pv
		}
		r.world[k] = v
	}
	from := len(r.t.events)
	return func() {
		for k := range lost {
			if r.wroteSince(from, k) {
				continue
			}
			if pv, ok := before[k]; ok {
				r.world[k] = pv
			} else {
				delete(r.world, k)
			}
		}
	}
}

// wroteSince reports whether a world.update written since the turn's
// event from (or one still held) sets or increments key.
func (r *runner) wroteSince(from int, key string) bool {
	evs := r.t.events[min(from, len(r.t.events)):]
	if r.t.tentative != nil {
		evs = append(append([]Event(nil), evs...), *r.t.tentative...)
	}
	return slices.ContainsFunc(evs, func(ev Event) bool { return writes(ev, key) != "" })
}

// writes is how the world.update ev writes key ("set" or "increment"; one
// that does both, "increment"), "" when ev is no world.update of key.
func writes(ev Event, key string) (how string) {
	p, _ := ev.Payload.(map[string]any)
	for _, h := range []string{"set", "increment"} {
		m, _ := p[h].(map[string]any)
		if _, has := m[key]; has && ev.Kind == KindWorldUpdate {
			how = h
		}
	}
	return how
}
