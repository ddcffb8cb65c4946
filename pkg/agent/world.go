package agent

import "kitsoki/internal/jsonvalue"

// snapshotWorld deep-copies the engine's world variables so a plugin (an
// in-process one in particular) can never change the engine's state through
// the request. The result is never nil: an empty world is {"vars":{}}.
func snapshotWorld(vars map[string]any) World {
	return World{Vars: jsonvalue.CopyAsJSON(vars).(map[string]any)} // a nil map copies as an empty one
}

// copyMap deep-copies a with: block (nil stays nil).
func copyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return jsonvalue.CopyAsJSON(m).(map[string]any)
}
