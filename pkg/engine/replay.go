package engine

import "strings"

// Upstream keeps no world in memory between turns: each turn folds the
// event log again (story-runtime §1.1), so a value written by a
// world.update set comes back through JSON — every number a float64,
// except a top-level key declared type: int, which is turned back into an
// int64 — while an increment replays as an int64. Views show the
// difference (pongo2 prints a float64 with %f: runtime-probes p13 `lit: 5`
// renders 5 in its own turn and 5.000000 on the next). replayWorld gives
// the world that shape at the start of every turn.

// noteWritten records the top-level keys a world.update event writes.
func (r *runner) noteWritten(payload any) {
	p, ok := payload.(map[string]any)
	if !ok {
		return
	}
	for how, field := range map[string]string{"set": "set", "increment": "increment"} {
		m, ok := p[field].(map[string]any)
		if !ok {
			continue
		}
		for k := range m {
			if r.written == nil {
				r.written = map[string]string{}
			}
			r.written[topKey(k)] = how
		}
	}
}

// topKey is the top-level world key of a set/bind key ("a.b[0]" -> "a").
func topKey(k string) string {
	if i := strings.IndexAny(k, ".["); i > 0 {
		return k[:i]
	}
	return k
}

// replayWorld turns the values set since the last turn into their replayed
// shape.
func (r *runner) replayWorld() {
	if r.oneShot {
		r.written = nil // kitsoki run keeps its values as they are (its trace golden)
		return
	}
	if len(r.written) == 0 || r.world == nil {
		return
	}
	for k, how := range r.written {
		v, ok := r.world[k]
		if !ok {
			continue
		}
		if how == "increment" {
			if f, isF := jsonNumbers(v).(float64); isF && f == float64(int64(f)) {
				r.world[k] = int64(f) // replayed as current as int64 + delta
			}
			continue
		}
		v = jsonNumbers(v)
		if f, isF := v.(float64); isF && r.declaredInt(k) && f == float64(int64(f)) {
			v = int64(f)
		}
		r.world[k] = v
	}
	r.written = nil
}

// declaredInt reports whether the story declares world key k type: int.
func (r *runner) declaredInt(k string) bool {
	for _, wv := range r.m.World {
		if wv.Name == k {
			t := strings.ToLower(wv.Type)
			return t == "int" || t == "integer"
		}
	}
	return false
}

// jsonNumbers is v after a JSON round trip: every number a float64, maps
// and lists copied.
func jsonNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = jsonNumbers(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = jsonNumbers(x)
		}
		return out
	case int:
		return float64(t)
	case int8:
		return float64(t)
	case int16:
		return float64(t)
	case int32:
		return float64(t)
	case int64:
		return float64(t)
	case uint:
		return float64(t)
	case uint8:
		return float64(t)
	case uint16:
		return float64(t)
	case uint32:
		return float64(t)
	case uint64:
		return float64(t)
	case float32:
		return float64(t)
	}
	return v
}
