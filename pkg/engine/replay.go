package engine

import (
	"encoding/base64"
	"math"
	"reflect"
	"time"
)

// Upstream folds the event log again at each turn, so a session's world
// takes the log's shape at every turn start (a set's numbers float64, an
// increment an int64, a coerced set its string); see docs/compat/engine.md
// "The replayed world". Machine-only sessions keep their values.

// replays reports whether the session's world is replayed between turns.
func (r *runner) replays() bool { return !r.so.MachineOnly }

// noteWritten records the world keys a world.update event writes.
func (r *runner) noteWritten(payload any) {
	p, ok := payload.(map[string]any)
	if !ok {
		return
	}
	for _, how := range []string{"set", "increment"} {
		m, ok := p[how].(map[string]any)
		if !ok {
			continue
		}
		for k := range m {
			if r.written == nil {
				r.written = map[string]string{}
			}
			r.written[k] = how
		}
	}
}

// journalAs records that key is journaled as v while the world holds
// another value (a set coerced in memory only); journalAs(key, nil, false)
// forgets it (the key was written as it is journaled).
func (r *runner) journalAs(key string, v any, differs bool) {
	if !differs {
		delete(r.journal, key)
		return
	}
	if r.journal == nil {
		r.journal = map[string]any{}
	}
	r.journal[key] = v
}

// replayWorld turns the values written since the last turn into their
// replayed shape, in place.
func (r *runner) replayWorld() {
	if r.replays() {
		r.replayInto(r.world)
		for k := range r.written {
			if lv, gone := r.journal[k].(lostValue); gone && !lv.has {
				// the log still gives the key nothing: a later lost set
				// falls back to the default again, in its own shape
				// (conformance bind-non-finite-increment, twice-default)
				delete(r.logged, k)
				continue
			}
			if v, ok := r.world[k]; ok {
				if r.logged == nil {
					r.logged = map[string]any{}
				}
				r.logged[k] = v
			} else {
				delete(r.logged, k)
			}
		}
	}
	r.written, r.journal = nil, nil
}

// replayInto gives the keys written since the last turn, read from the
// running world (or the journal), their replayed shape in w.
func (r *runner) replayInto(w World) {
	for k, how := range r.written {
		v, ok := r.world[k]
		if j, journaled := r.journal[k]; journaled {
			v, ok = j, true
		}
		if !ok {
			continue
		}
		if lv, gone := v.(lostValue); gone { // see lostSet
			if !lv.has {
				delete(w, k)
				if d, ok := r.declaredDefault(k); ok {
					w[k] = d
				}
				continue
			}
			v, how = lv.prev, lv.how
		}
		if how == "increment" {
			// an int64 with no JSON float in between (conformance increment-big-replay)
			switch n := v.(type) {
			case int:
				w[k] = int64(n)
				continue
			case int64:
				w[k] = n
				continue
			}
		}
		v = jsonNumbers(v)
		if f, isF := v.(float64); isF {
			switch {
			case r.declaredInt(k):
				// conformance replay-int-fraction, replay-int-overflow
				v = int64Like(f)
			case how == "increment" && f == float64(int64(f)):
				v = int64(f) // an increment replays as current as int64 + delta
			}
		}
		w[k] = v
	}
}

// int64Like is Go's float64 to int64 conversion as amd64 does it: cut
// toward zero, and the minimum int64 for a value past the int64 range
// (other platforms saturate, so the range is checked here).
func int64Like(f float64) int64 {
	if f >= -(1<<63) && f < 1<<63 {
		return int64(f)
	}
	return math.MinInt64
}

// declaredInt reports whether the story declares world key k type: int,
// as written: a key of type integer or Int replays as any other number
// (conformance set-coercion-type-names).
func (r *runner) declaredInt(k string) bool {
	return declaredType(r.m.World, k) == "int"
}

// jsonNumbers is v after a JSON round trip: every number a float64, a
// time its text, a duration its nanoseconds, maps and lists copied, a nil one null (conformance
// git-diff-files-nil).
func jsonNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		if t == nil {
			return nil
		}
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = jsonNumbers(x)
		}
		return out
	case []any:
		if t == nil {
			return nil
		}
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = jsonNumbers(x)
		}
		return out
	case time.Time:
		// its JSON text: a cassette's !!timestamp value (conformance
		// cassette-dates-text)
		return t.Format(time.RFC3339Nano)
	case time.Duration:
		// its JSON number of nanoseconds: now() - t (conformance
		// replay-duration)
		return float64(t)
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Type().PkgPath() != "" {
		return v // nil, or a named type
	}
	if k := rv.Kind(); (k == reflect.Slice || k == reflect.Map) && rv.IsNil() {
		return nil
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(rv.Uint())
	case reflect.Float32:
		return rv.Float()
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			// JSON's base64 text, not a list: a fixture's !!binary read
			// back (conformance fixture-binary)
			return base64.StdEncoding.EncodeToString(rv.Bytes())
		}
		// a handler's typed list ([]map[string]any) is a JSON list
		// (conformance replay-typed-list)
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = jsonNumbers(rv.Index(i).Interface())
		}
		return out
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return v
		}
		out := make(map[string]any, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			out[it.Key().String()] = jsonNumbers(it.Value().Interface())
		}
		return out
	}
	return v
}

// lostValue marks in the journal a set whose value (an infinite or NaN
// number) the log could only write as null; prev (if has) is the value the
// log gave the key before and how replays it (conformance
// bind-non-finite-increment).
type lostValue struct {
	prev any
	has  bool
	how  string
}

// lostSet is such a set outside --strict: the world holds v for the rest
// of the turn, the world.update has no payload, and the next turn has the
// value the log gave the key before, else its declared default, or no key
// (conformance values-non-finite, values-non-finite-logged).
func (r *runner) lostSet(key string, v any) error {
	lv := lostValue{how: "set"}
	switch how, now := r.writtenNow(key); {
	case !now:
		lv.prev, lv.has = r.logged[key]
		if _, isInt := lv.prev.(int64); isInt {
			lv.how = "increment" // an earlier turn's replayed int64
		}
	case how == "set":
		if j, ok := r.journal[key].(lostValue); ok {
			lv = j // the key's last set this turn was lost too
			break
		}
		lv.prev, lv.has = r.world[key], true
		if j, ok := r.journal[key]; ok {
			lv.prev = j // a set coerced in memory: the log has j
		}
	default: // an increment: the log folds it onto the value in memory
		lv.prev, lv.has, lv.how = r.world[key], true, "increment"
		if j, ok := r.journal[key]; ok {
			lv.prev = j // onto the logged value, after a lost set (conformance lost-after-increment)
		}
	}
	setPath(r.world, key, v)
	r.journalAs(key, lv, true)
	r.noteWritten(map[string]any{"set": map[string]any{key: nil}})
	return r.emit(KindWorldUpdate, nil)
}

// loggedBase is the value upstream's replay adds an increment of key to
// when the turn journaled j for it: after a lost set, the value the log
// gave the key before (a float default when it gave none: the replay
// reads a YAML integer default as 0), not the lost one (conformance
// lost-set-increment).
func (r *runner) loggedBase(key string, j any) any {
	lv, lost := j.(lostValue)
	switch {
	case !lost:
		return j
	case lv.has:
		return lv.prev
	}
	if d, ok := r.declaredDefault(key); ok {
		if f, isF := d.(float64); isF {
			return f
		}
	}
	return nil
}

// writtenNow is how this turn last wrote key ("set" or "increment"), if
// it did: its world.update events, written or still held.
func (r *runner) writtenNow(key string) (how string, ok bool) {
	if _, lost := r.journal[key].(lostValue); lost {
		return "set", true // a lost set (its event has no payload)
	}
	lists := [][]Event{r.t.events, r.t.walk.effs, r.t.walk.recv}
	if r.t.tentative != nil {
		lists = append(lists, *r.t.tentative)
	}
	for _, evs := range lists {
		for _, ev := range evs {
			if h := writes(ev, key); h != "" {
				how, ok = h, true
			}
		}
	}
	return how, ok
}

// declaredDefault is world key k's declared default, if the story declares k.
func (r *runner) declaredDefault(k string) (any, bool) {
	def, _ := InitWorld(r.m.World, nil, nil)
	v, ok := def[k]
	return v, ok
}

// noteTransition records, before the machine moves, whether the move's
// machine.transition is lost to upstream's log (lost) or written there.
// Upstream reads the session's state back from the last transition its
// log holds, so after a lost one the session rests where the machine was
// before that move, unless a later move is logged (conformance
// emit-slots-non-finite).
func (r *runner) noteTransition(lost bool) {
	switch {
	case !lost:
		r.t.lostHop, r.t.loggedAt = nil, nil
	case r.t.lostHop == nil && r.t.loggedAt != nil:
		p := r.t.loggedAt.cloned()
		r.t.lostHop = &p
	case r.t.lostHop == nil:
		p := r.place.cloned()
		r.t.lostHop = &p
	}
}

// loggedPath is the state path upstream's log leaves the session at: where
// the machine was before the turn's last move when that move was lost to
// the log (noteTransition), else where it rests.
func (r *runner) loggedPath() string {
	if r.t.lostHop == nil || r.so.MachineOnly {
		return r.statePath()
	}
	cur := r.place
	r.place = *r.t.lostHop
	defer func() { r.place = cur }()
	return r.statePath()
}

// restLogged puts the session back where upstream's log leaves it when
// the turn's last move was lost to it (noteTransition); the turn's world
// writes stand.
func (r *runner) restLogged() {
	if r.t.lostHop != nil {
		r.place, r.t.lostHop = *r.t.lostHop, nil
	}
}
