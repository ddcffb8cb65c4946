package flowtest

import (
	"maps"

	"kitsoki/pkg/story"
)

// The seeded keys (story-runtime §1.1; conformance values-seeding): an
// orchestrated session puts into its world, with no event, session_id
// when it holds no non-empty text and ide.connected false merged into
// any ide map, at its start and before each user turn, and ide again
// before each host dispatch; the rig's world (what expect_world reads)
// is seeded the same way. The legacy path seeds neither.

// seed is engine runner.seed on the known world: a session_id it would
// seed becomes uncertain (the session's id is not the lint's to know).
func (w *knownWorld) seed() {
	if v, ok := w.get(story.WorldSessionID); ok {
		if s, _ := v.(string); s == "" {
			w.dirty[story.WorldSessionID] = true
		}
	}
	w.seedIDE()
}

// seedIDE is engine seedIDE on the known world: a certain ide becomes
// the map with connected false; an uncertain one stays so.
func (w *knownWorld) seedIDE() {
	v, ok := w.get(story.WorldIDE)
	if !ok {
		return
	}
	w.set(story.WorldIDE, seededIDE(v))
}

// seededIDE is v, a certain ide value, as seedIDE leaves it.
func seededIDE(v any) map[string]any {
	m, _ := v.(map[string]any)
	ide := make(map[string]any, len(m)+1)
	maps.Copy(ide, m)
	ide["connected"] = false
	return ide
}

// seededView is the value k, known as v, reads in the rig's world after
// a turn of an orchestrated fixture: session_id and ide seeded.
func seededView(k string, v any) (any, bool) {
	switch k {
	case story.WorldSessionID:
		if s, _ := v.(string); s == "" {
			return nil, false
		}
	case story.WorldIDE:
		return seededIDE(v), true
	}
	return v, true
}
