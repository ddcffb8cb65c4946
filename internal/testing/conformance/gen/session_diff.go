package main

import (
	"regexp"
	"strings"
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
	switch t := v.(type) {
	case string:
		if sid != "" {
			t = strings.ReplaceAll(t, sid, "<session>")
		}
		return anyUUID.ReplaceAllString(t, "<session>")
	case map[string]any:
		for k, x := range t {
			t[k] = noSession(x, sid)
		}
	case []any:
		for i, x := range t {
			t[i] = noSession(x, sid)
		}
	}
	return v
}
