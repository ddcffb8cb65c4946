package trace

import (
	"encoding/json"
	"fmt"
	"time"
)

// currentSchemaVersion is the highest trace schema version this package reads and
// the one it writes.
const currentSchemaVersion = 1

// headerKind is the kind of the first line of every trace.
const headerKind = "session.header"

// Header is the first line of a trace. Its optional kitsoki members are
// omitted when empty, so such a header is byte-identical to upstream's.
type Header struct {
	SchemaVersion int       // 0 on write means the current version (1)
	WrittenAt     time.Time // zero on write means now; written RFC3339Nano UTC
	AppID         string    // story app id, optional
	Story         string    // story path as given to kitsoki run, optional
	Generator     string    // e.g. "kitsoki 0.3.0", optional
}

// Event is one trace line after the header. The writer assigns Seq; on
// read, Payload holds the bytes as on disk (json.RawMessage) and Line is
// the ordinal among non-blank lines (the header is 1).
type Event struct {
	Turn       int
	Seq        int
	TS         time.Time // zero on write means now; always written in UTC
	Kind       string
	StatePath  string // omitted on disk when empty
	ParentTurn int    // omitted on disk when 0 (off-path events only)
	CallID     string // omitted on disk when empty
	EpisodeID  string // omitted on disk when empty (cassette replays)
	MatchIdx   int    // omitted on disk when 0 (cassette replays)
	Payload    any    // JSON-encodable; nil is written as {}
	Line       int    // set by the reader
}

// wireEvent is the on-disk shape; field order is the key order of the file.
type wireEvent struct {
	Turn       int             `json:"turn"`
	Seq        int             `json:"seq"`
	TS         time.Time       `json:"ts"`
	Kind       string          `json:"kind"`
	StatePath  string          `json:"state_path,omitempty"`
	ParentTurn int             `json:"parent_turn,omitempty"`
	CallID     string          `json:"call_id,omitempty"`
	EpisodeID  string          `json:"episode_id,omitempty"`
	MatchIdx   int             `json:"match_idx,omitempty"`
	Payload    json.RawMessage `json:"payload"`
}

type wireHeader struct {
	Kind          string    `json:"kind"`
	SchemaVersion int       `json:"schema_version"`
	WrittenAt     time.Time `json:"written_at"`
	AppID         string    `json:"app_id,omitempty"`
	Story         string    `json:"story,omitempty"`
	Generator     string    `json:"generator,omitempty"`
}

var emptyObject = json.RawMessage(`{}`)

// encodeHeader returns the header line, with its LF, as the writer writes
// it.
func encodeHeader(h Header) ([]byte, error) {
	if h.SchemaVersion == 0 {
		h.SchemaVersion = currentSchemaVersion
	}
	b, err := json.Marshal(wireHeader{
		Kind: headerKind, SchemaVersion: h.SchemaVersion, WrittenAt: h.WrittenAt.UTC(),
		AppID: h.AppID, Story: h.Story, Generator: h.Generator,
	})
	if err != nil {
		return nil, fmt.Errorf("trace: encode header: %w", err)
	}
	return append(b, '\n'), nil
}

func encodeWire(ev *Event, payload json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(wireEvent{
		Turn: ev.Turn, Seq: ev.Seq, TS: ev.TS.UTC(), Kind: ev.Kind, StatePath: ev.StatePath,
		ParentTurn: ev.ParentTurn, CallID: ev.CallID, EpisodeID: ev.EpisodeID,
		MatchIdx: ev.MatchIdx, Payload: payload,
	})
	if err != nil {
		return nil, fmt.Errorf("trace: encode %s event: %w", ev.Kind, err)
	}
	return append(b, '\n'), nil
}

// marshalPayload turns a payload value into compact JSON; nil becomes {}.
func marshalPayload(p any) (json.RawMessage, error) {
	switch v := p.(type) {
	case nil:
		return emptyObject, nil
	case json.RawMessage:
		if len(v) == 0 {
			return emptyObject, nil
		}
		return v, nil
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	if string(b) == "null" {
		return emptyObject, nil
	}
	return b, nil
}
