package compose

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"sync"

	"kitsoki/internal/agentcall"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/recost"
	"kitsoki/internal/safefile"
	"kitsoki/internal/sleep"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/host"
)

// HostCassette answers host calls from a `kind: host_cassette` file
// (trace-eval.md part B) for every handler an episode's match.handler
// names, writing an agent: block's agent.call.* events. It is the engine's
// [engine.HostReplay]; a nil *HostCassette handles nothing.
type HostCassette struct {
	c        *agent.Cassette
	handlers map[string]bool
	// recording: record_mode new_episodes: a miss the fallback answers is
	// appended to the file at path and to the episodes.
	recording bool
	// fallback reports the handlers whose real handler answers a miss
	// (a flow fixture's host_bindings); nil: none.
	fallback func(handler string) bool
	path     string
	root     string // the project root appends go through ("" for none)
	fileMu   sync.Mutex
}

// LoadHostCassette reads a host cassette file as kitsoki run does: it
// replays only, and every episode must name the handler it answers.
func LoadHostCassette(path string) (*HostCassette, error) { return loadHostCassette(path, false) }

// ParseFlowHostCassette is LoadFlowHostCassette of the bytes read from
// path, the file a recording appends to.
func ParseFlowHostCassette(path string, data []byte, patterns *recost.Budget) (*HostCassette, error) {
	hc, err := parseHostCassetteIn(path, data, true, patterns)
	if hc != nil {
		hc.path = path
	}
	return hc, err
}

// AppendIn makes a recording append to the file only through the
// project root dir (the one it was read through).
func (hc *HostCassette) AppendIn(dir string) { hc.root = dir }

// Fresh is hc as parsed, with nothing played (agent.Cassette.Fresh), for
// another fixture naming the same file.
func (hc *HostCassette) Fresh() *HostCassette {
	return &HostCassette{c: hc.c.Fresh(), handlers: hc.handlers, recording: hc.recording, path: hc.path, root: hc.root}
}

// LoadFlowHostCassette is LoadHostCassette for a flow fixture's
// host_cassette, the absolute path read through its project root r (a
// link on the way leading out is refused, never followed), where
// record_mode: new_episodes replays as upstream's flow rig does without a
// live fallback.
//
// Its phase_from compiles within patterns, the story's budget
// (story.Story.Patterns) that every fixture and cassette of it shares.
func LoadFlowHostCassette(r *safefile.Root, path string, patterns *recost.Budget) (*HostCassette, error) {
	data, err := ReadFlowHostCassette(r, path)
	if err != nil {
		return nil, err
	}
	return ParseFlowHostCassette(path, data, patterns)
}

// ReadFlowHostCassette reads the bytes of a flow fixture's host_cassette
// through r, a read's error worded as LoadFlowHostCassette words it.
func ReadFlowHostCassette(r *safefile.Root, path string) ([]byte, error) {
	data, err := r.ReadFile(path, safefile.Data)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", path, safefile.Reason(err))
	}
	return data, nil
}

func loadHostCassette(path string, flow bool) (*HostCassette, error) {
	data, err := safefile.ReadFile(path, safefile.Data)
	return hostCassetteRead(path, data, err, flow, nil)
}

// hostCassetteRead parses the bytes read from path, or words the read's error.
func hostCassetteRead(path string, data []byte, err error, flow bool, patterns *recost.Budget) (*HostCassette, error) {
	if err != nil {
		return nil, fmt.Errorf("%s: %s", path, safefile.Reason(err))
	}
	return parseHostCassetteIn(path, data, flow, patterns)
}

// parseHostCassetteIn parses host cassette bytes as pkg/agent does (name is
// in errors), its phase_from compiled within patterns (nil: a budget of its
// own).
func parseHostCassetteIn(name string, data []byte, flow bool, patterns *recost.Budget) (*HostCassette, error) {
	c, err := agent.ParseCassetteIn(name, data, patterns)
	if err != nil {
		return nil, err
	}
	if c.RecordMode == "new_episodes" && !flow {
		return nil, fmt.Errorf("cassette: %q: record_mode %q: kitsoki run replays only; recording is not supported here", name, c.RecordMode)
	}
	hc := &HostCassette{c: c, handlers: map[string]bool{}, recording: c.RecordMode == "new_episodes"}
	for _, ep := range c.Episodes {
		ep.Match, _ = jsonvalue.Normalize(ep.Match).(map[string]any)
		h, _ := ep.Match["handler"].(string)
		switch {
		case h != "":
			hc.handlers[h] = true
		case !flow:
			return nil, fmt.Errorf("cassette: %q: episode %q: match.handler is required", name, ep.ID)
		}
		// a flow fixture's episode naming no handler registers none; every
		// dispatcher the others register walks it, as upstream's rig
		// (conformance cassette-episode-no-handler)
	}
	return hc, nil
}

// Handles reports whether the cassette serves handler h: an episode names
// it, or names a prefix of it (host.x serves host.x.op, with args.op = op).
func (hc *HostCassette) Handles(h string) bool {
	_, op, ok := hc.route(h)
	if ok && op != "" && hc.fallback != nil && hc.fallback(h) {
		// the real handler of that exact name wins over a dispatcher of
		// its prefix (upstream's longest-prefix registry)
		return false
	}
	return ok || hc.recordsAgent(h)
}

// recordsAgent reports an agent verb the cassette records though no
// episode names it: under record_mode new_episodes with the real agent
// as fallback, upstream's rig passes every host.agent.* call through the
// cassette (conformance cassette-miss-real-handler).
func (hc *HostCassette) recordsAgent(h string) bool {
	return hc != nil && hc.recording && hc.fallback != nil && strings.HasPrefix(h, "host.agent.") && hc.fallback(h)
}

// route returns the handler name the episodes use for h and the op suffix
// when a prefix handler serves it.
func (hc *HostCassette) route(h string) (handler, op string, ok bool) {
	if hc == nil {
		return "", "", false
	}
	return host.Route(h, func(n string) bool { return hc.handlers[n] })
}

// routed is the handler name the episodes use for a call to h, and the
// call's args with the op a prefix handler drops.
func (hc *HostCassette) routed(h string, args map[string]any) (string, map[string]any) {
	handler, op, ok := hc.route(h)
	if !ok {
		return h, args
	}
	// a caller's own non-empty string op is kept; an absent, empty or
	// non-string one is replaced (conformance cassette-prefix-caller-op)
	if s, _ := args["op"].(string); op != "" && s == "" {
		args = maps.Clone(args)
		if args == nil {
			args = map[string]any{}
		}
		args["op"] = op
	}
	return handler, args
}

// match plays the first eligible episode for a call to handler
// (schema_name compares with args.schema's base name).
func (hc *HostCassette) match(handler, statePath string, args map[string]any) (*agent.Episode, int, error) {
	var perr error
	ep, idx := hc.c.Pick(func(k string, want any) bool {
		got, err := hc.callKey(k, handler, statePath, args)
		if err != nil {
			perr = err
			return false
		}
		return agent.ValuesEqual(got, want)
	})
	if ep != nil {
		return ep, idx, nil
	}
	if perr != nil {
		return nil, 0, perr
	}
	if hc.fallback != nil && hc.fallback(handler) {
		return nil, 0, fmt.Errorf("cassette miss: handler %q: %w", handler, engine.ErrReplayMiss)
	}
	if hc.recording {
		return nil, 0, fmt.Errorf("cassette: record mode %q but no fallback handler for %q", hc.c.RecordMode, handler)
	}
	return nil, 0, fmt.Errorf("cassette miss: no episode matched handler=%q args=%v; available episodes: [%s]", handler, args, strings.Join(hc.c.IDs(), " "))
}

// callKey is what an episode's match: key k compares with on a call to
// handler.
func (hc *HostCassette) callKey(k, handler, statePath string, args map[string]any) (any, error) {
	switch k {
	case "handler":
		return handler, nil
	case "phase":
		return hc.c.Phase(statePath)
	case "schema_name":
		// "" when with.schema is absent or not a string (so null never
		// matches), filepath.Base's "." for an empty one, as upstream
		// (conformance cassette-schema-name-absent)
		if s, ok := args["schema"].(string); ok {
			return filepath.Base(s), nil
		}
		return "", nil
	}
	return args[k], nil
}

// Replay answers one call from the cassette (engine.HostReplay). A delay
// is slept on a real clock; on a virtual one it goes with the answer.
func (hc *HostCassette) Replay(ctx context.Context, c engine.ReplayCall) (engine.Replayed, error) {
	var out engine.Replayed
	handler, args := hc.routed(c.Handler, c.Args)
	ep, idx, err := hc.match(handler, c.State, args)
	if err != nil {
		return out, err
	}
	if ep.Delay > 0 && !c.Virtual {
		if err := sleep.For(ctx, ep.Delay); err != nil {
			return out, err
		}
	} else if ep.Delay > 0 {
		// a background job lands once the clock passes it, as upstream
		// (conformance cassette-delay-virtual)
		out.Delay = ep.Delay
	}
	if ep.Agent != nil {
		appID := cmp.Or(hc.c.AppID, c.AppID)
		out.CallID = agentcall.CassetteID(appID, ep.ID, idx)
		out.Events = agentEvents(ep, out.CallID, idx, strings.TrimPrefix(c.Handler, "host.agent."))
	}
	err = answered(ep, &out)
	return out, err
}

// answered sets out's data and domain error from the episode's response,
// or returns its infra error.
func answered(ep *agent.Episode, out *engine.Replayed) error {
	if ep.Response.InfraError != "" {
		// the recorded text as it is, as upstream's replay returns it
		return errors.New(ep.Response.InfraError)
	}
	// a domain error keeps the episode's data, which still binds
	out.Error = ep.Response.Error
	// an episode recording no data (none, null, an empty response:)
	// answers none: no data in harness.returned, a nil last_job_result, as
	// upstream's replay (conformance cassette-response-no-data)
	// its whole numbers in the shape upstream's YAML decoder gives them, a
	// uint64 when not negative: a when: counts a 0 true (conformance
	// cassette-data-whole-numbers)
	if ep.Response.Data != nil {
		out.Data, _ = jsonvalue.YAMLInts(jsonvalue.Normalize(ep.Response.Data)).(map[string]any)
	}
	return nil
}

// agentEvents are the agent.call.* events an agent: block records for the
// idx-th play of the episode.
func agentEvents(ep *agent.Episode, callID string, idx int, verb string) []engine.Event {
	a := ep.Agent
	if a.Verb != "" {
		verb = a.Verb
	}
	start := &agent.CallStartPayload{Verb: verb, Agent: a.Agent, Model: a.Model, Prompt: a.Prompt}
	// any value but null, as upstream's replay writes it ("", [], 0, {})
	start.Input = a.Input
	evs := []engine.Event{{Kind: agent.EventCallStart, CallID: callID, EpisodeID: ep.ID, MatchIdx: idx, Payload: start}}
	if a.Error != "" {
		return append(evs, engine.Event{Kind: agent.EventCallError, CallID: callID,
			Payload: &agent.CallErrorPayload{Verb: verb, Agent: a.Agent, DurationMS: a.DurationMS, Error: a.Error}})
	}
	var resp any
	if s := a.Response; s != "" {
		// raw JSON when it starts with { or [ as written, as upstream's
		// replay tells them (" {…}" is text: TestHostCassetteAgentTexts)
		if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") {
			resp = json.RawMessage(s)
		} else {
			resp = s
		}
	}
	if a.ResponseJSON != nil {
		resp = a.ResponseJSON
	}
	var meta map[string]any
	if a.PromptTokens > 0 || a.ResponseTokens > 0 || a.CostUSD > 0 {
		meta = map[string]any{}
		usage := map[string]any{}
		for k, n := range map[string]int64{"input_tokens": a.PromptTokens, "output_tokens": a.ResponseTokens} {
			if n > 0 {
				usage[k] = n
			}
		}
		if len(usage) > 0 {
			meta["usage"] = usage
		}
		if a.CostUSD > 0 {
			meta["cost_usd"] = a.CostUSD
		}
	}
	return append(evs, engine.Event{Kind: agent.EventCallComplete, CallID: callID,
		Payload: cassetteComplete{Verb: verb, Agent: a.Agent, Model: a.Model, DurationMS: a.DurationMS, Response: resp, Meta: meta, Transcript: a.Transcript}})
}

// cassetteComplete is agent.call.complete on the cassette path (B.2).
// Transcript is the episode's agent.transcript, which the trace writer
// moves to transcripts/<call_id>.jsonl as transcript_ref, as upstream
// does on complete, never on error (pkg/flowtest
// TestCassetteAgentTranscriptInTrace).
type cassetteComplete struct {
	Verb       string            `json:"verb"`
	Agent      string            `json:"agent,omitempty"`
	Model      string            `json:"model,omitempty"`
	DurationMS int64             `json:"duration_ms"`
	Response   any               `json:"response,omitempty"`
	Meta       map[string]any    `json:"meta,omitempty"`
	Transcript *agent.Transcript `json:"transcript,omitempty"`
}

// TranscriptEvents is the episode's transcript events as written: a
// string event keeps its spacing in transcripts/<call_id>.jsonl, as
// upstream's does (trace.RawTranscript).
func (c cassetteComplete) TranscriptEvents() []json.RawMessage { return c.Transcript.RawEvents() }

// Remaining lists the ids of the episodes never played, in file order
// (strict_cassette_coverage); an unnamed episode lists as "", as upstream
// prints it (conformance cassette-strict-unnamed-episode).
func (hc *HostCassette) Remaining() []string {
	if hc == nil {
		return nil
	}
	var out []string
	for i, ep := range hc.c.Episodes {
		if !hc.c.Played(i) {
			out = append(out, ep.ID)
		}
	}
	return out
}
