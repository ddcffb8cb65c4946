package engine

import (
	"errors"

	"kitsoki/internal/jsonvalue"
)

// errUnloggable is upstream's failure of a job's completion whose events
// hold a string not in Unicode NFC: its event log refuses the batch, so the
// chain's writes and moves are lost and no notification is posted
// (conformance flow-non-nfc-turn).
var errUnloggable = errors.New("handleJobTerminal: append events: store/jsonl: append: payload string contains NFD-normalised unicode (must be NFC)")

// unloggable tells that an event the current turn wrote holds a string
// not in NFC.
func (r *runner) unloggable() bool {
	for _, ev := range r.t.events {
		if _, bad := jsonvalue.FirstNonNFC(ev.Payload); bad {
			return true
		}
	}
	return false
}
