package trace

import (
	"encoding/json"
	"errors"
	"kitsoki/internal/fastpath"
	"strings"
	"time"
)

// FastDecodeEnv turns the fast line decoder off when set to 0 (or false,
// off, no); it is read when a Reader is made.
const FastDecodeEnv = "KITSOKI_TRACE_FASTDECODE"

// fastDecodeOff reports whether FastDecodeEnv turns the fast decoder off.
func fastDecodeOff() bool { return fastpath.Off(FastDecodeEnv) }

// Field bits of the known top-level keys, for duplicate detection.
const (
	fTurn = 1 << iota
	fSeq
	fTS
	fKind
	fStatePath
	fParentTurn
	fCallID
	fEpisodeID
	fMatchIdx
	fPayload
)

var knownKeys = [...]string{"turn", "seq", "ts", "kind", "state_path", "parent_turn", "call_id", "episode_id", "match_idx", "payload"}

// fastDecode parses an event line whose known members have their usual
// types; on anything else it returns false and the caller decodes the line
// with encoding/json, for its exact semantics and errors. payload aliases b.
func fastDecode(b []byte, ev *Event) (payload []byte, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i = skipSpace(b, i+1)
	var seen int
	if i < len(b) && b[i] == '}' {
		i++
		return nil, skipSpace(b, i) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		kend, kesc, kok := skipString(b, i)
		if !kok || kesc {
			return nil, false
		}
		key := b[i+1 : kend-1]
		i = skipSpace(b, kend)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipSpace(b, i+1)
		vend, vok := skipValue(b, i, 1)
		if !vok {
			return nil, false
		}
		val := b[i:vend]
		bit, ok := decodeMember(key, val, ev)
		switch {
		case !ok || seen&bit != 0:
			return nil, false // or a duplicate key: encoding/json keeps the last
		case bit == fPayload:
			payload = val
		}
		seen |= bit
		var done bool
		if i, done, ok = nextMember(b, vend, '}'); !ok {
			return nil, false
		}
		if done {
			return payload, skipSpace(b, i) == len(b)
		}
	}
}

// decodeMember sets the field of ev that key names and returns its bit (0
// for an unknown key); false for an unusual value type, or a key that
// differs from a known one only in case (encoding/json would match it).
func decodeMember(key, val []byte, ev *Event) (int, bool) {
	switch string(key) {
	case "turn":
		return fTurn, setInt(&ev.Turn, val)
	case "seq":
		return fSeq, setInt(&ev.Seq, val)
	case "parent_turn":
		return fParentTurn, setInt(&ev.ParentTurn, val)
	case "match_idx":
		return fMatchIdx, setInt(&ev.MatchIdx, val)
	case "ts":
		return fTS, decodeTS(val, &ev.TS)
	case "kind", "state_path", "call_id", "episode_id":
		s, ok := parseString(val)
		switch key[0] {
		case 'k':
			ev.Kind = s
			return fKind, ok
		case 's':
			ev.StatePath = s
			return fStatePath, ok
		case 'c':
			ev.CallID = s
			return fCallID, ok
		}
		ev.EpisodeID = s
		return fEpisodeID, ok
	case "payload":
		return fPayload, true
	}
	for _, k := range knownKeys {
		if strings.EqualFold(k, string(key)) {
			return 0, false
		}
	}
	return 0, true
}

// setInt sets *dst from an integer value.
func setInt(dst *int, val []byte) bool {
	n, ok := parseInt(val)
	if ok {
		*dst = n
	}
	return ok
}

// decodeTS sets *dst from a quoted timestamp, through time.Time's own
// decoding.
func decodeTS(val []byte, dst *time.Time) bool {
	if val[0] != '"' {
		return false
	}
	var t time.Time
	if err := t.UnmarshalJSON(val); err != nil {
		return false
	}
	*dst = t
	return true
}

// parseInt accepts a plain JSON integer of at most 18 digits.
func parseInt(v []byte) (int, bool) {
	neg := false
	if len(v) > 0 && v[0] == '-' {
		neg = true
		v = v[1:]
	}
	if len(v) == 0 || len(v) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range v {
		if !isDigit(c) {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// parseString reads a JSON string value; escapes and non-ASCII text go
// through encoding/json.
func parseString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	inner := v[1 : len(v)-1]
	for _, c := range inner {
		if c == '\\' || c >= 0x80 {
			var s string
			if json.Unmarshal(v, &s) != nil {
				return "", false
			}
			return s, true
		}
	}
	return string(inner), true
}

// decodeLine decodes event line n with encoding/json and applies the rules
// a line can break on its own.
func (r *Reader) decodeLine(n int, line []byte, ev *Event) ([]byte, error) {
	payload, err := slowDecode(line, ev)
	if se := (*json.SyntaxError)(nil); errors.As(err, &se) {
		return nil, r.corrupt(n, RuleJSON, err, "line %d is not valid JSON: %v", n, err)
	}
	if (err != nil || ev.Kind == headerKind) && probeKind(line) == headerKind {
		return nil, r.corrupt(n, RuleDuplicateHeader, nil, "duplicate session.header at line %d", n)
	}
	if err != nil {
		return nil, r.corrupt(n, RuleUnmarshal, err, "line %d: unmarshal event: %v", n, err)
	}
	return payload, nil
}

// slowDecode decodes an event line with encoding/json, whose error text the
// read-time messages quote.
func slowDecode(b []byte, ev *Event) (payload []byte, err error) {
	// The type is named Event so that encoding/json's messages read
	// "Go struct field Event.turn of type int".
	type Event wireEvent
	var w Event
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, err
	}
	ev.Turn, ev.Seq, ev.TS, ev.Kind, ev.StatePath = w.Turn, w.Seq, w.TS, w.Kind, w.StatePath
	ev.ParentTurn, ev.CallID, ev.EpisodeID, ev.MatchIdx = w.ParentTurn, w.CallID, w.EpisodeID, w.MatchIdx
	return w.Payload, nil
}

// probeKind returns the "kind" member of a valid JSON line as encoding/json
// would decode it into a string field, or "" when it is absent or not a string.
func probeKind(b []byte) string {
	var p struct {
		Kind json.RawMessage `json:"kind"`
	}
	if json.Unmarshal(b, &p) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(p.Kind, &s) != nil {
		return ""
	}
	return s
}
