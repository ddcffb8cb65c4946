package flowtest

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strings"
	"time"

	"kitsoki/internal/human"
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/engine"
)

// event is a turn's event in the plain JSON model (payload decoded), as
// the assertions and the report see it.
type event struct {
	engine.Event
	payload any // decoded JSON model of Payload
}

func toEvents(evs []engine.Event, legacy bool) []event {
	out := make([]event, 0, len(evs))
	for i, ev := range evs {
		if legacy && !legacyKind(ev.Kind) {
			continue
		}
		if ev.Kind == engine.KindEmitIntent {
			// upstream writes an emit hop as its synthetic transition only
			continue
		}
		if ev.Kind == engine.KindIntentAccepted && i > 0 && evs[i-1].Kind == engine.KindEmitIntent {
			// nor an intent_accepted for it, only for the turn's own
			// intent (conformance expect-hop-accepted). The emit before
			// it tells a hop, not the synthetic transition after it: a
			// hop whose slots hold NaN or an infinity writes that one
			// with no payload (conformance hop-accepted-non-finite)
			continue
		}
		if legacy {
			// §6.1
			ev.StatePath, ev.Turn = "", 0
		}
		out = append(out, event{Event: ev, payload: normPayload(ev.Payload)})
	}
	return out
}

// legacyMissingSlots is the validation_failed event upstream's legacy
// path reports for a MISSING_SLOTS rejection, where the engine writes none.
func legacyMissingSlots(rej *engine.Rejection, intent string) event {
	p := map[string]any{"code": rej.Code, "intent": intent, "message": rej.Message, "state": rej.State}
	return event{Event: engine.Event{Kind: engine.KindValidationFailed, Payload: p}, payload: norm(p)}
}

// orchestratorStatePaths stamps each event with the turn's starting
// state, state_entered/exited with their own (flow-format.md §6.5).
func orchestratorStatePaths(evs []event, from string) {
	for i := range evs {
		switch evs[i].Kind {
		case engine.KindStateEntered, engine.KindStateExited:
			if s := evs[i].str("state"); s != "" {
				evs[i].StatePath = s
			}
		default:
			evs[i].StatePath = from
		}
	}
}

// legacyKind is what upstream's legacy path reports: the machine's own
// events (no intent_accepted), no turn.*, no dispatch (flow-format.md §3.5).
func legacyKind(k string) bool {
	return k != engine.KindIntentAccepted && (strings.HasPrefix(k, "machine.") || k == engine.KindHarnessCalled || k == engine.KindWorldUpdate)
}

func (e event) field(k string) any {
	m, _ := e.payload.(map[string]any)
	return m[k]
}

func (e event) str(k string) string {
	s, _ := e.field(k).(string)
	return s
}

// reportEvents renders events for the JSON report (flow-format.md §5.1,
// §6.5), payloads encoded only when a report is made (encodePayload).
func reportEvents(evs []event) []ReportEvent {
	if len(evs) == 0 {
		return nil
	}
	out := make([]ReportEvent, 0, len(evs))
	for i, ev := range evs {
		re := ReportEvent{Turn: ev.Turn, Seq: int64(i), TS: time.Time{}, Kind: ev.Kind, StatePath: ev.StatePath,
			CallID: ev.CallID, EpisodeID: ev.EpisodeID, MatchIdx: ev.MatchIdx}
		if ev.Payload != nil {
			re.model, re.pending = ev.payload, true
		}
		out = append(out, re)
	}
	return out
}

// encodePayload sets Payload from the model reportEvents kept, once.
func (re *ReportEvent) encodePayload() {
	if !re.pending {
		return
	}
	if b, err := json.Marshal(plain(re.model)); err == nil {
		re.Payload = b
	}
	re.model, re.pending = nil, false
}

// plain turns the comparison model (norm's, whose maps and lists are never
// nil) back into JSON-marshalable values.
func plain(v any) any { return jsonvalue.MapLeaves(v, plainLeaf) }

// plainLeaf is a num as an int64 where it is a whole number of safe size,
// else a float64 (a negative zero too, which upstream's report writes
// -0: conformance signed-zero-world); any other leaf as it is.
func plainLeaf(v any) any {
	t, ok := v.(num)
	if !ok {
		return v
	}
	f, _ := (*big.Float)(t).Float64()
	if f == float64(int64(f)) && f < 1e15 && f > -1e15 && (f != 0 || !math.Signbit(f)) {
		return int64(f)
	}
	return f
}

// summary is one line per event for failure output.
func (e event) summary() string {
	var b strings.Builder
	b.WriteString(e.Kind)
	switch e.Kind {
	case engine.KindTransition:
		fmt.Fprintf(&b, " %s → %s (%s)", e.str("from"), e.str("to"), e.str("intent"))
	case engine.KindStateEntered, engine.KindStateExited:
		fmt.Fprintf(&b, " %s", e.str("state"))
	case kindDispatched, engine.KindHarnessCalled, engine.KindHarnessReturned:
		fmt.Fprintf(&b, " %s", e.str("namespace"))
		if s := e.str("error"); s != "" {
			fmt.Fprintf(&b, " error=%s", clip(s))
		}
	default:
		m, _ := e.payload.(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			b.WriteString(" " + k + "=" + human.Clip(show(plain(m[k])), 80))
		}
	}
	return b.String()
}

func lastEvents(evs []event, n int) []string {
	if len(evs) > n {
		evs = evs[len(evs)-n:]
	}
	out := make([]string, 0, len(evs))
	for _, e := range evs {
		out = append(out, e.summary())
	}
	return out
}
