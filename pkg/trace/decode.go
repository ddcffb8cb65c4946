package trace

import (
	"encoding/json"
	"strings"
	"time"
)

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

// fastDecode parses an event line that is a plain JSON object whose known
// members have their usual types. It returns ok=false whenever the line is
// invalid or unusual; the caller then uses slowDecode for the exact error or
// the exact encoding/json semantics. payload aliases b.
func fastDecode(b []byte, ev *Event, in *interner) (payload []byte, ok bool) {
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
		vstart := i
		vend, vok := skipValue(b, i, 1)
		if !vok {
			return nil, false
		}
		val := b[vstart:vend]
		bit := 0
		switch string(key) {
		case "turn":
			bit = fTurn
			n, ok := parseInt(val)
			if !ok {
				return nil, false
			}
			ev.Turn = n
		case "seq":
			bit = fSeq
			n, ok := parseInt(val)
			if !ok {
				return nil, false
			}
			ev.Seq = n
		case "parent_turn":
			bit = fParentTurn
			n, ok := parseInt(val)
			if !ok {
				return nil, false
			}
			ev.ParentTurn = n
		case "match_idx":
			bit = fMatchIdx
			n, ok := parseInt(val)
			if !ok {
				return nil, false
			}
			ev.MatchIdx = n
		case "ts":
			bit = fTS
			if val[0] != '"' {
				return nil, false
			}
			if t, ok := parseTS(val); ok {
				ev.TS = t
				break
			}
			var t time.Time
			if err := t.UnmarshalJSON(val); err != nil {
				return nil, false
			}
			ev.TS = t
		case "kind", "state_path", "call_id", "episode_id":
			s, ok := parseString(val, in, key[0] != 'c')
			if !ok {
				return nil, false
			}
			switch key[0] {
			case 'k':
				bit, ev.Kind = fKind, s
			case 's':
				bit, ev.StatePath = fStatePath, s
			case 'c':
				bit, ev.CallID = fCallID, s
			default:
				bit, ev.EpisodeID = fEpisodeID, s
			}
		case "payload":
			bit = fPayload
			payload = val
		default:
			for _, k := range knownKeys {
				if strings.EqualFold(k, string(key)) {
					return nil, false // encoding/json matches keys case-insensitively
				}
			}
		}
		if bit != 0 {
			if seen&bit != 0 {
				return nil, false // duplicate key: encoding/json keeps the last
			}
			seen |= bit
		}
		i = skipSpace(b, vend)
		if i >= len(b) {
			return nil, false
		}
		if b[i] == '}' {
			i++
			break
		}
		if b[i] != ',' {
			return nil, false
		}
		i = skipSpace(b, i+1)
	}
	return payload, skipSpace(b, i) == len(b)
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

func parseString(v []byte, in *interner, intern bool) (string, bool) {
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
	if intern && in != nil {
		return in.get(inner), true
	}
	return string(inner), true
}

// slowDecode decodes an event line with encoding/json, whose error text the
// read-time messages quote.
func slowDecode(b []byte, ev *Event) (payload []byte, err error) {
	// The type is named Event so that encoding/json's messages read
	// "Go struct field Event.turn of type int".
	type Event struct {
		Turn       int             `json:"turn"`
		Seq        int             `json:"seq"`
		TS         time.Time       `json:"ts"`
		Kind       string          `json:"kind"`
		StatePath  string          `json:"state_path"`
		ParentTurn int             `json:"parent_turn"`
		CallID     string          `json:"call_id"`
		EpisodeID  string          `json:"episode_id"`
		MatchIdx   int             `json:"match_idx"`
		Payload    json.RawMessage `json:"payload"`
	}
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
