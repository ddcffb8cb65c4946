package main

import (
	"regexp"
	"strings"

	"kitsoki/internal/jsonvalue"
)

// anyUUID is a UUID anywhere in a text: upstream's session id is a
// random one.
var anyUUID = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// noSession replaces the session id inside every string of v (a decoded
// world value or a view) with one placeholder: upstream's, a random
// UUID, and ours, sid (flowtest.SessionID of the fixture; "" for
// upstream's side), so that a value built from world.session_id
// (`run-{{ world.session_id }}`) compares (docs/compat/engine.md
// "Seeded keys").
func noSession(v any, sid string) any {
	return jsonvalue.MapLeaves(v, func(leaf any) any {
		s, ok := leaf.(string)
		if !ok {
			return leaf
		}
		if sid != "" {
			s = strings.ReplaceAll(s, sid, "<session>")
		}
		return anyUUID.ReplaceAllString(s, "<session>")
	})
}
