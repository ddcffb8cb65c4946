package agent

import (
	"encoding/json"
)

// snapshotWorld deep-copies the engine's world variables so a plugin (an
// in-process one in particular) can never change the engine's state through
// the request. The result is never nil: an empty world is {"vars":{}}.
func snapshotWorld(vars map[string]any) World {
	out := make(map[string]any, len(vars))
	for k, v := range vars {
		out[k] = deepCopy(v)
	}
	return World{Vars: out}
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case nil, string, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64,
		float32, float64, json.Number:
		return v
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	case map[string]string:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = e
		}
		return out
	case json.RawMessage:
		return append(json.RawMessage(nil), x...)
	default:
		// Anything else (structs, typed slices) is copied through its JSON
		// form, which is also what the plugin will see on the wire.
		b, err := json.Marshal(x)
		if err != nil {
			return nil
		}
		var c any
		if json.Unmarshal(b, &c) != nil {
			return nil
		}
		return c
	}
}

// copyMap deep-copies a with: block (nil stays nil).
func copyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = deepCopy(v)
	}
	return out
}
