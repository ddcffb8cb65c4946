package conformance

import "regexp"

// What a report holds that differs from run to run, or from upstream's
// working directory to ours, and so is compared as a placeholder: job
// ids, inbox ids, session ids, artifact directories. The random
// differential (gen diff) reads texts and payloads through it too.

// ulidText is a job id in a text: a 26-character ULID (upstream's are
// random, ours count), ended by anything but a capital or a digit (an
// id a template glued to lower-case text, "<id>j-x", too).
var ulidText = regexp.MustCompile(`\b([0-9A-HJKMNP-TV-Z]{26})($|[^0-9A-Z])`)

// oscLink is an OSC-8 hyperlink around a text: upstream's views wrap a
// recorded artifact's path in one, ours never (docs/compat/views.md).
var oscLink = regexp.MustCompile("\x1b\\]8;;[^\x1b]*\x1b\\\\(.*?)\x1b\\]8;;\x1b\\\\")

// artifactDir is the directory an artifact path names: upstream's
// working directory, ours a fresh one per fixture
// (docs/compat/flowtest.md).
var artifactDir = regexp.MustCompile(`/[^\s"'\x1b]*/\.artifacts/`)

// detachedAt is git's name for a detached HEAD (host.git's branch
// lists): the commit's id, stamped with the wall clock upstream and the
// virtual clock here.
var detachedAt = regexp.MustCompile(`\(HEAD detached at [0-9a-f]{7,64}\)`)

// NoIDs replaces the job ids in s (an error naming a job, a view
// showing one) with one placeholder, an OSC-8 link by its text, the
// directory of an artifact path by <workdir> and a detached HEAD's
// commit by <sha>.
func NoIDs(s string) string {
	s = artifactDir.ReplaceAllString(oscLink.ReplaceAllString(s, "$1"), "<workdir>/.artifacts/")
	s = detachedAt.ReplaceAllString(s, "(HEAD detached at <sha>)")
	return ulidText.ReplaceAllString(s, "<job>$2")
}

// inboxID is our inbox message id (n1, n2, …: the inbox counts its
// items); upstream's is a random ULID.
var inboxID = regexp.MustCompile(`^n[0-9]+$`)

// sessionID is a session id: a random UUID on both sides (a failed
// host.agent.* call's host_error carries it in its data).
var sessionID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// A Keyed is a placeholder for a string that a key holds, at any depth,
// when the string matches Text.
type Keyed struct {
	Key, As string
	Text    *regexp.Regexp
}

// idKeys: an inbox id (an "id" key's value, as host.inbox.add returns it)
// becomes the same placeholder as upstream's ULID, a "session_id" key's
// UUID one placeholder too.
var idKeys = []Keyed{{Key: "id", As: "<job>", Text: inboxID}, {Key: "session_id", As: "<session>", Text: sessionID}}

// NoIDsIn is NoIDs on every string inside a decoded JSON value, changed in
// place, but a string under a key of idKeys or of more that matches its
// pattern becomes that key's placeholder.
func NoIDsIn(v any, more ...Keyed) any {
	return noIDsIn(v, append(idKeys[:len(idKeys):len(idKeys)], more...))
}

func noIDsIn(v any, keys []Keyed) any {
	switch t := v.(type) {
	case string:
		return NoIDs(t)
	case map[string]any:
		for k, x := range t {
			t[k] = keyedValue(k, x, keys)
		}
	case []any:
		for i, x := range t {
			t[i] = noIDsIn(x, keys)
		}
	}
	return v
}

// keyedValue is x, held by key k, with its ids replaced.
func keyedValue(k string, x any, keys []Keyed) any {
	if s, ok := x.(string); ok {
		for _, c := range keys {
			if c.Key == k && c.Text.MatchString(s) {
				return c.As
			}
		}
	}
	return noIDsIn(x, keys)
}
