package flowtest

import (
	"cmp"
	"fmt"
	"maps"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// A start state with no known dotted prefix (x.y, c/c9), or "" on the
// legacy path, strands the session upstream: every intent is rejected and
// the checks see that state (flow-format.md §2.1, §2.2). The engine
// refuses such starts, so the runner plays their turns itself.

// strandedState reports whether a failed start is that case.
func (fr *fixtureRun) strandedState(err error) bool {
	st := fr.fx.InitialState
	if st == "" || strings.ContainsAny(st, "#|") || err == nil {
		return false
	}
	_, known := fr.m.States[st]
	return !known && strings.Contains(err.Error(), "is not a state of the story")
}

// sessionID is the fixture's session id (upstream's is a random UUID).
func (fr *fixtureRun) sessionID() string { return SessionID(fr.fx.Name()) }

// SessionID is the session id of the fixture named name (a report's File):
// flow-<name's slug>, where upstream's is a random UUID
// (docs/compat/engine.md "Seeded keys").
func SessionID(name string) string { return "flow-" + slug(name) }

// seedStranded puts into the world of an orchestrator session stranded
// before the engine starts ("c/c1") what upstream's orchestrator seeds on
// its load, as the engine does for a start it refuses (x.y): session_id
// unless set, and ide.connected false merged into an ide map
// (conformance stranded-slash-seeded).
func seedStranded(w map[string]any, id string) {
	if s, _ := w[story.WorldSessionID].(string); s == "" {
		w[story.WorldSessionID] = id
	}
	ide := map[string]any{}
	if m, ok := w[story.WorldIDE].(map[string]any); ok {
		maps.Copy(ide, m)
	}
	ide["connected"] = false
	w[story.WorldIDE] = ide
}

// strandedSession is a session that cannot leave its unknown start state.
type strandedSession struct {
	state string
	world map[string]any
	turn  int64 // the session's turn number (orchestrator path)
}

func (s *strandedSession) State() string         { return s.state }
func (s *strandedSession) World() map[string]any { return s.world }
func (s *strandedSession) Terminal() bool        { return false }

func (fr *fixtureRun) stranded(world map[string]any) {
	ss := &strandedSession{state: fr.fx.InitialState, world: world}
	if fr.play(func(t *Turn) (*TurnResult, bool) { return fr.strandedTurn(ss, t) }, nil) {
		fr.finish(ss)
	}
}

// orchestratorTurn wraps the rejection in turn.input, turn.start and
// turn.end, as upstream's orchestrator does; a world_override takes a
// turn of its own first (flow-format.md §3.1).
func (ss *strandedSession) orchestratorTurn(t *Turn, name, code string, rejected event) []event {
	if len(t.WorldOverride) > 0 {
		ss.turn++
	}
	ss.turn++
	input := cmp.Or(t.DisplayInput, "[intent] "+name)
	mk := func(kind string, p map[string]any) event {
		return event{Event: engine.Event{Turn: ss.turn, Kind: kind, StatePath: ss.state, Payload: p}, payload: norm(p)}
	}
	rejected.Turn, rejected.StatePath = ss.turn, ss.state
	return []event{
		mk(engine.KindTurnInput, map[string]any{"input": input, "intent": name}),
		mk(engine.KindTurnStart, map[string]any{"direct": true, "input": input, "turn": ss.turn}),
		rejected,
		mk(engine.KindTurnEnd, map[string]any{"code": code, "outcome": "rejected"}),
	}
}

func (fr *fixtureRun) strandedTurn(ss *strandedSession, t *Turn) (*TurnResult, bool) {
	c := &checker{turn: t.Index, state: ss.state, patterns: fr.patterns()}
	var name string
	var sent map[string]any
	switch {
	case t.Intent != nil:
		name, sent = t.Intent.Name, kvMap(t.Intent.Slots)
		if t.Intent.Slots == nil {
			sent = nil
		}
	case t.HasInput:
		e := fr.recorded(t, ss.state)
		if e == nil {
			return nil, false
		}
		name, sent = e.Intent, e.Slots
	}
	for _, kv := range t.WorldOverride {
		if t.Intent == nil && !t.HasInput {
			break // a clock-only turn writes no override (as fr.turn)
		}
		ss.world[kv.Key] = jsonvalue.CopyNilAsEmpty(kv.Value)
	}
	var rej *engine.Rejection
	var evs []event
	if t.Intent != nil || t.HasInput {
		rej = &engine.Rejection{Code: engine.CodeNotAllowed, Intent: name, State: ss.state,
			Message: fmt.Sprintf("intent %q is not allowed in state %q", name, ss.state)}
		ev := legacyMissingSlots(rej, name) // same payload shape
		evs = []event{ev}
		if !fr.legacy {
			evs = ss.orchestratorTurn(t, name, rej.Code, ev)
		}
		fr.hadErrors = true
	}
	c.events = evs
	fr.allEvents = append(fr.allEvents, evs...)
	tr := &TurnResult{TurnIndex: t.Index, NewState: ss.state, Events: reportEvents(evs)}
	if t.ExpectError != nil {
		c.errorChecks(t.ExpectError, rej, fr.legacy, "transitioned")
		return fr.close(tr, c)
	}
	c.rejected(t.Pos, rej, fr.legacy)
	c.stateChecks(t, ss.state)
	c.worldChecks(t, ss.world, ss.world, fr.legacy)
	c.eventChecks(t, evs, fr.legacy)
	c.hostCallChecks(t, evs, fr.legacy)
	c.viewChecks(t, "")
	c.slotChecks(t, sent)
	c.inboxChecks(t, nil)
	c.jobChecks(t, nil, nil)
	return fr.close(tr, c)
}
