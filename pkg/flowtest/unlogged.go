package flowtest

import (
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/engine"
)

// nonNFCTurn is upstream's refusal of an orchestrator turn whose events
// hold a string not in Unicode NFC (a world value, a slot, a stub's answer,
// display_input, the rendered view): its event log cannot append them and
// the whole `test flows` run stops at that turn. Ours fails the turn
// (conformance flow-non-nfc-turn).
const nonNFCTurn = "RunIntent: orchestrator: RunIntent: append events: store/jsonl: append: payload string contains NFD-normalised unicode (must be NFC)"

// unloggable tells that an orchestrator turn's events, as the engine wrote
// them or as the report shows them, hold a string not in NFC.
func unloggable(evs []engine.Event, shown []event) bool {
	for _, ev := range evs {
		if _, bad := jsonvalue.FirstNonNFC(ev.Payload); bad {
			return true
		}
	}
	for _, ev := range shown {
		if _, bad := jsonvalue.FirstNonNFC(ev.payload); bad {
			return true
		}
	}
	return false
}
