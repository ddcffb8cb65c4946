package engine

import (
	"context"
	"errors"
	"time"
)

// HostReplay answers host calls from a recording instead of their
// handlers ([Options].HostReplay; pkg/compose's host cassette implements
// it), so the engine reads no recording itself.
type HostReplay interface {
	// Handles reports whether the recording answers the handler.
	Handles(handler string) bool
	// Replay answers one call. The returned Events are written before
	// the answer is used, also when the error is set; the error is the
	// call's failure (the effect's on_error applies).
	Replay(ctx context.Context, c ReplayCall) (Replayed, error)
}

// ReplayCall is one host call put to a [HostReplay].
type ReplayCall struct {
	Handler string         // the invoke: name
	Args    map[string]any // the rendered with:
	State   string         // the state the turn began at (phase matching)
	AppID   string         // the story's app id
	Virtual bool           // the session runs on a virtual clock, which never sleeps
}

// Replayed is a [HostReplay]'s answer: the call's data, its domain error,
// its call id and the events the recording wrote for it (agent.call.*);
// the engine stamps each with the turn, the state and the time.
type Replayed struct {
	Data map[string]any
	// Error is the recorded domain error (response.error): Data still
	// binds (story-runtime §2.3), unlike after Replay's infra error.
	Error  string
	CallID string
	Events []Event
	// Delay is the recorded delay, given on a virtual clock only (a real
	// one has slept it): a background job lands once the clock passes it,
	// as after a stub's delay; a foreground call does not wait for it.
	Delay time.Duration
}

// ErrReplayMiss is wrapped by a [HostReplay]'s Replay error when no
// recorded answer matches the call and the call's real handler is to
// answer it instead (upstream's flow rig under host_bindings, where the
// real built-in is the cassette's fallback: conformance
// cassette-miss-real-handler).
var ErrReplayMiss = errors.New("no recorded answer")

// HostRecorder is a [HostReplay] that hears the real handler's answer to a
// call it missed (ErrReplayMiss), to record it (record_mode new_episodes).
// A call that failed outside its domain (an infra error) is not recorded.
// Record may be called from a background job's goroutine.
type HostRecorder interface {
	Record(c ReplayCall, data map[string]any, domainErr string)
}

// replays reports whether hr answers handler h.
func replays(hr HostReplay, h string) bool {
	return hr != nil && hr.Handles(h)
}

// replayHost answers a call from the session's HostReplay, writing the
// recording's events straight to the sink (they are not the turn's). The
// data binds as recorded: an agent verb's `submission` is not copied into
// `submitted`, as upstream's flow rig does not (conformance
// cassette-submission-only).
func (r *runner) replayHost(ctx context.Context, e *Effect, args map[string]any) (hostAnswer, string, error) {
	rep, err := r.so.HostReplay.Replay(ctx, r.replayCall(e, args))
	if len(rep.Events) > 0 {
		// a synthetic turn's events so far go first (sendOrDrop)
		if err := r.sendOrDrop(false); err != nil {
			return hostAnswer{}, rep.CallID, err
		}
	}
	for _, ev := range rep.Events {
		ev.Turn, ev.StatePath = r.turn, r.cur.Path
		if r.so.Sink == nil {
			break
		}
		if ev.TS.IsZero() {
			ev.TS = time.Now()
		}
		if err := r.so.Sink.Emit(ev); err != nil {
			return hostAnswer{}, rep.CallID, err
		}
	}
	if err != nil {
		return hostAnswer{delay: rep.Delay}, rep.CallID, err
	}
	return hostAnswer{data: rep.Data, err: rep.Error, delay: rep.Delay}, rep.CallID, nil
}

// replayCall is the call put to the session's HostReplay.
func (r *runner) replayCall(e *Effect, args map[string]any) ReplayCall {
	_, virtual := r.clock.(*VirtualClock)
	return ReplayCall{Handler: e.Invoke, Args: args, State: r.phaseState, AppID: r.m.AppID, Virtual: virtual}
}

// recorded hands a missed call's live answer to the session's HostReplay
// when it records (HostRecorder); an infra error is not recorded.
func recorded(hr HostReplay, c ReplayCall, ans hostAnswer, err error) {
	if rec, ok := hr.(HostRecorder); ok && err == nil {
		rec.Record(c, ans.data, ans.err)
	}
}

// AgentDomainError is an [AgentCaller]'s failure that is the call's
// domain error, not an infra error: its Data still binds and goes into
// host_error (story-runtime §2.3), as upstream's real agent handlers
// answer (conformance host-bindings-no-claude, no-claude-domain-view).
// Err, when set, is the failure underneath (its call id and alias).
type AgentDomainError struct {
	Msg  string
	Data map[string]any
	Err  error
}

func (e *AgentDomainError) Error() string { return e.Msg }

func (e *AgentDomainError) Unwrap() error { return e.Err }

// agentDomain turns an agent call's AgentDomainError into its answer.
func agentDomain(ans hostAnswer, err error) (hostAnswer, error) {
	var de *AgentDomainError
	if errors.As(err, &de) {
		return hostAnswer{data: de.Data, err: de.Msg}, nil
	}
	return ans, err
}
