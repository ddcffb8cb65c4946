package agent

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"kitsoki/internal/agentcall"
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/schema"
)

// Call is one agent call as the engine describes it.
type Call struct {
	// Alias is the effect's agent: value ("" = agent.claude).
	Alias string
	// Verb is ask, decide, extract, task or converse (an opaque routing key).
	Verb      string
	SessionID string
	Turn      int64
	StatePath string
	// CallID overrides the derived id. Leave it empty: Dispatch derives
	// agentcall.ID(appID, "<turn>:<state_path>:<seq>") with seq counting the calls
	// of this session, turn and state, or the cassette key on replay.
	CallID string
	// Prompt is the fully rendered prompt text.
	Prompt string
	// SchemaPath is with.schema, relative to the story directory. Schema,
	// when set, is used instead (already compiled).
	SchemaPath string
	Schema     *schema.Schema
	// With is the effect's with: block, sent to the plugin as is (copied).
	With map[string]any
	// World is the engine's world; the plugin gets a deep copy.
	World map[string]any
	// Persona is the with.agent persona name; Model its model. Both are
	// reported on the trace events only.
	Persona string
	Model   string
	// Timeout is the hard deadline of this call (0 = the registry default).
	// Deadline is the soft deadline sent to the plugin (zero = start+Timeout).
	Timeout  time.Duration
	Deadline time.Time
	// Sink overrides the registry's sink for this call.
	Sink Sink
}

// Result is a successful call.
type Result struct {
	CallID string
	Alias  string
	// Submission is the plugin's answer, byte-verbatim.
	Submission json.RawMessage
	// Value is the submission as the engine binds it, decoded once, here:
	// the masked submission's JSON value (an integer that fits as int,
	// any other number as float64, -0.0 keeping its sign), or its text
	// when it is not one JSON value (no schema, or whitespace that is not
	// JSON's around it); nil when the submission is empty or null.
	Value      any
	Meta       map[string]any
	SubEvents  []SubEvent // as reported: call_id forced, ts re-stamped
	Transcript *Transcript
	Duration   time.Duration
	EpisodeID  string // cassette replay only
	MatchIdx   int
	// Substitution is set when the call's answer came from the fallback
	// agent (a rejected builtin.local_llm answer re-dispatched to
	// agent.claude); Alias stays the requested alias.
	Substitution *Substitution
	// Reply is the reply of a call on upstream's default verb path
	// (AskResponse.Reply), its text masked; nil for any other call.
	Reply *Reply
}

// replySchema is the schema an answer is checked against: none for a reply
// on upstream's default verb path that came as text, which its verb binds
// unvalidated (an answer through the submit tool is checked).
func replySchema(sch *schema.Schema, reply *Reply) *schema.Schema {
	if reply != nil && !reply.Submitted {
		return nil
	}
	return sch
}

// Dispatch runs one agent call through the pipeline of doc.go. On a plugin
// failure it returns an *AskError (after reporting agent.call.error). An
// unknown alias or a failing sink returns a plain error.
func (r *Registry) Dispatch(ctx context.Context, c Call) (*Result, error) {
	// 0. Pre-dispatch hooks (hooks.go) may rewrite alias, prompt and with:
	// or veto, before anything is built or reported.
	if err := r.runPreDispatch(ctx, &c); err != nil {
		return nil, err
	}
	alias, t, err := r.Resolve(c.Alias)
	if err != nil {
		return nil, err
	}
	timeout := cmp.Or(max(c.Timeout, 0), r.timeout)
	st := callState{r: r, c: &c, alias: alias, sink: cmp.Or(c.Sink, r.sink), start: time.Now(), timeout: timeout, notes: &callNotes{}}

	// 1. Build the request: with: and the world deep-copied, so a plugin
	// (an in-process one in particular) can never change the engine's
	// state through it; the world is never nil (an empty one is
	// {"vars":{}}); a NaN or ±Inf in either, which JSON cannot hold, goes
	// as its text ("NaN", "+Inf"), since upstream sends neither and its
	// call goes on (its answer binds).
	req := &AskRequest{
		SessionID: c.SessionID,
		Turn:      c.Turn,
		StatePath: c.StatePath,
		Verb:      c.Verb,
		Prompt:    c.Prompt,
		With:      jsonvalue.NonFiniteText(copyMap(c.With)).(map[string]any),
		World:     World{Vars: jsonvalue.NonFiniteText(jsonvalue.CopyAsJSON(c.World)).(map[string]any)},
		Deadline:  softDeadline(ctx, c.Deadline, st.start, timeout),
		CallID:    c.CallID,
	}
	sch, schemaErr := r.schemaFor(c)
	if sch != nil {
		req.Schema = sch.Bundled
	}
	res := &Result{Alias: alias}
	// A cassette fixes the call's identity before the request is built:
	// the episode decides the call id.
	if p, ok := t.(*cassetteAgent); ok && req.CallID == "" {
		if app, ep, idx, ok := p.plan(req); ok {
			req.CallID = agentcall.CassetteID(app, ep, idx)
			res.EpisodeID, res.MatchIdx = ep, idx
		}
	}
	if req.CallID == "" {
		req.CallID = agentcall.LiveID(r.appID, c.Turn, c.StatePath, r.nextSeq(c.SessionID, c.Turn, c.StatePath))
	}
	res.CallID = req.CallID
	st.callID = req.CallID
	st.persona = cmp.Or(c.Persona, alias)

	// 2. agent.call.start.
	startPayload := &CallStartPayload{Verb: c.Verb, Agent: st.persona, Model: r.redact.String(c.Model), Prompt: r.redact.String(c.Prompt)}
	if c.SchemaPath != "" || sch != nil {
		// schema_present is what the existing engine writes on its plugin
		// path (agent-contract §9.2), schema_path what its claude path does
		startPayload.Input = map[string]any{"schema_path": schemaID(&c), "schema_present": true}
	}
	sysPrompt, inherit := r.persona(c.Persona)
	r.logRequest(startPayload, alias, sysPrompt, req, timeout)
	if err := st.emit(Event{Kind: EventCallStart, CallID: req.CallID, TS: st.start, Turn: c.Turn, StatePath: c.StatePath,
		EpisodeID: res.EpisodeID, MatchIdx: res.MatchIdx, Payload: startPayload}); err != nil {
		return nil, err
	}
	if schemaErr != nil {
		return st.fail(schemaErr)
	}

	// 3. The transport, under the hard deadline.
	// The persona model travels beside the request (the wire has no model
	// field); transports that can honour it (builtin.claude_cli) read it.
	tctx := withNotes(withCall(ctx, callExtras{model: c.Model, systemPrompt: sysPrompt, inherit: inherit}), st.notes)
	resp, late, askErr := askWithDeadline(tctx, t, alias, req, timeout, r.lateWait())
	if askErr != nil {
		st.late = late
		return st.fail(askErr)
	}
	st.keepTranscript(resp.Transcript)

	// 4. Sub-event rules and 5. schema validation.
	a, verr := r.checkAnswer(alias, req.CallID, replySchema(sch, resp.Reply), resp)
	if verr != nil && resp.Reply != nil {
		verr.Reply = resp.Reply // a default-path decide's refused answer (AskError.Reply)
	}
	if verr != nil {
		if verr.Kind == KindSchemaInvalid && substitutes(alias, t) {
			// A local model's rejected answer goes to agent.claude once
			// (fallback.go); the call stays one start/complete pair.
			return r.fallback(ctx, &st, req, sch, res, verr, timeout)
		}
		return st.fail(verr)
	}

	// 6. Sub-events and agent.call.complete.
	return st.complete(ctx, resp, a, res)
}

// noted is what the call's transports noted, masked, for its result event.
func (st *callState) noted() (session string, stray []string) {
	session, stray = st.notes.fields()
	for i, s := range stray {
		stray[i] = st.r.redact.String(s)
	}
	return st.r.redact.String(session), stray
}

// checkAnswer applies the sub-event rules (namespace "<alias>.", matching
// call_id; checked now, written only on success) and validates the
// submission against sch, parsing it once.
func (r *Registry) checkAnswer(alias, callID string, sch *schema.Schema, resp *AskResponse) (answer, *AskError) {
	prefix := alias + "."
	for i := range resp.SubEvents {
		se := &resp.SubEvents[i]
		if !strings.HasPrefix(se.Kind, prefix) || len(se.Kind) == len(prefix) || isCallKind(se.Kind) {
			return answer{}, Errorf(KindSubEventNamespaceViolation,
				"sub_event[%d]: Kind %q does not start with required namespace prefix %q", i, se.Kind, prefix)
		}
		if se.CallID != callID {
			return answer{}, Errorf(KindSubEventCallIDMismatch,
				"sub_event[%d]: CallID %q does not match parent call_id %q", i, se.CallID, callID)
		}
	}
	return r.checkSubmission(sch, resp.Submission)
}

// complete reports the sub-events, re-stamped inside the call window, then
// agent.call.complete (with the substitution, after a fallback), and
// returns the filled res.
func (st *callState) complete(ctx context.Context, resp *AskResponse, a answer, res *Result) (*Result, error) {
	r, c := st.r, st.c
	// The answer is masked once, here, where it enters the run.
	raw := resp.Submission
	resp, value := r.redact.maskAnswer(resp, a)
	value = jsonvalue.Ints(value)
	if !bytes.Equal(raw, resp.Submission) {
		// masking changed the bytes: a secret spanning the JSON syntax is
		// in no one string of value (encoded again, it would spell the
		// secret), so the hooks, the trace and the bind get the masked
		// text read as written
		value = readMasked(resp.Submission)
	}
	// Post-return hooks (hooks.go) may veto a validated answer.
	if ae := r.runPostReturn(ctx, c, st.alias, value, resp.Meta); ae != nil {
		st.meta = resp.Meta // the vetoed answer's cost still counts
		return st.fail(ae)
	}
	prev := st.start
	for i := range resp.SubEvents {
		se := &resp.SubEvents[i]
		ts := st.now(prev)
		prev = ts
		se.TS = ts
		// A sub-event belongs to its call: the call's turn and state, so the
		// trace's turn order holds whatever the plugin claimed.
		se.Turn, se.StatePath = c.Turn, c.StatePath
		if err := st.emit(Event{Kind: se.Kind, CallID: st.callID, TS: ts, Turn: se.Turn, StatePath: se.StatePath,
			Payload: se.Payload}); err != nil {
			return nil, err
		}
	}
	end := st.now(prev)
	res.Submission = resp.Submission
	res.Value = bound(raw, resp.Submission, a, value)
	res.Meta = resp.Meta
	res.SubEvents = resp.SubEvents
	res.Transcript = resp.Transcript
	res.Duration = end.Sub(st.start)
	res.Substitution = st.sub
	if rp := resp.Reply; rp != nil {
		res.Reply = r.redact.reply(rp)
	}

	meta := resp.Meta
	m, _ := meta["model"].(string)
	model := cmp.Or(c.Model, m)
	var traced any = value
	if value == nil && string(resp.Submission) == "null" {
		traced = json.RawMessage("null") // an answer of null, not no answer
	}
	complete := &CallCompletePayload{Verb: c.Verb, Agent: st.persona, Model: r.redact.String(model), DurationMS: res.Duration.Milliseconds(),
		Response: &CallResponse{Submission: traced, Meta: meta}, Meta: meta, Transcript: st.transcript, Substitution: st.sub}
	complete.MCPSessionID, complete.Stray = st.noted()
	if err := st.emit(Event{Kind: EventCallComplete, CallID: st.callID, TS: end, Turn: c.Turn, StatePath: c.StatePath, Payload: complete}); err != nil {
		return nil, err
	}
	if r.log.Enabled(ctx, slog.LevelDebug) {
		r.log.Debug("agent call", slog.String("alias", st.alias), slog.String("call_id", st.callID),
			slog.String("verb", c.Verb), slog.Duration("duration", res.Duration), slog.Int("sub_events", len(resp.SubEvents)))
	}
	return res, nil
}

// isCallKind reports the kinds only Dispatch may write (a plugin aliased
// agent.call must not forge them).
func isCallKind(k string) bool {
	return k == EventCallStart || k == EventCallComplete || k == EventCallError
}

// callState is the per-call context Dispatch's steps share.
type callState struct {
	r       *Registry
	c       *Call
	alias   string
	callID  string
	persona string
	sink    Sink
	start   time.Time
	sub     *Substitution  // set once a fallback took over the call
	timeout time.Duration  // the call's hard timeout
	meta    map[string]any // meta of an answer refused after it arrived (post-return veto)
	late    *AskResponse   // an answer that arrived after the hard deadline
	notes   *callNotes     // what the transport noted (notes.go)
	// transcript is the masked transcript of the answers that arrived (a
	// rejected local_llm answer's, then its fallback's), for the result
	// event.
	transcript *Transcript
}

// keepTranscript adds an arrived answer's transcript t (masked) to the
// call's: events and timings appended (a missing timing is 0), the format
// the latest one's.
func (st *callState) keepTranscript(t *Transcript) {
	if t == nil || len(t.Events) == 0 {
		return
	}
	t = st.r.redact.transcript(t)
	if st.transcript == nil {
		st.transcript = t
		return
	}
	prev := st.transcript
	timings := make([]int64, 0, len(prev.Events)+len(t.Events))
	for i := range prev.Events {
		timings = append(timings, timingAt(prev.Timings, i))
	}
	for i := range t.Events {
		timings = append(timings, timingAt(t.Timings, i))
	}
	st.transcript = &Transcript{Format: cmp.Or(t.Format, prev.Format),
		Events: append(slices.Clip(prev.Events), t.Events...), Timings: timings}
}

// timingAt is timings[i], or 0 past its end.
func timingAt(timings []int64, i int) int64 {
	if i < len(timings) {
		return timings[i]
	}
	return 0
}

// now is the call's clock: monotonic from start (it never goes back, even
// if the wall clock does) and strictly after prev.
func (st *callState) now(prev time.Time) time.Time {
	t := st.start.Add(time.Since(st.start))
	if !t.After(prev) {
		t = prev.Add(time.Nanosecond)
	}
	return t
}

func (st *callState) emit(ev Event) error {
	if st.sink == nil {
		return nil
	}
	if err := st.sink.Emit(ev); err != nil {
		return fmt.Errorf("agent: %s call %s: trace sink (%s): %w", st.alias, st.callID, ev.Kind, err)
	}
	return nil
}

// fail reports agent.call.error for ae (secrets masked) and returns it.
func (st *callState) fail(ae *AskError) (*Result, error) {
	cp := *st.r.redactError(ae)
	cp.CallID = st.callID
	cp.Alias = st.alias
	if ae.Reply != nil {
		cp.Reply = st.r.redact.reply(ae.Reply)
	}
	ae = &cp
	end := st.now(st.start)
	st.r.log.Debug("agent call failed", slog.String("alias", st.alias), slog.String("call_id", st.callID),
		slog.String("verb", st.c.Verb), slog.Duration("duration", end.Sub(st.start)), slog.String("error", ae.Error()))
	ep := &CallErrorPayload{Verb: st.c.Verb, Agent: st.persona, DurationMS: end.Sub(st.start).Milliseconds(), Error: ae.Error(),
		Substitution: st.sub, Transcript: st.transcript}
	ep.MCPSessionID, ep.Stray = st.noted()
	st.r.logRefused(ep, st, ae)
	if err := st.emit(Event{Kind: EventCallError, CallID: st.callID, TS: end, Turn: st.c.Turn, StatePath: st.c.StatePath,
		Payload: ep}); err != nil {
		return nil, errors.Join(ae, err)
	}
	return nil, ae
}

// schemaFor compiles the call's schema; a failure is the call's schema_invalid.
func (r *Registry) schemaFor(c Call) (*schema.Schema, *AskError) {
	if c.Schema != nil {
		return c.Schema, nil
	}
	if c.SchemaPath == "" {
		return nil, nil
	}
	s, err := r.schemas.Compile(c.SchemaPath)
	if err != nil {
		return nil, &AskError{Kind: KindSchemaInvalid, Detail: "schema compilation failed: " + err.Error(), Underlying: err}
	}
	return s, nil
}

// redactError returns ae with every secret masked in what it prints.
func (r *Registry) redactError(ae *AskError) *AskError {
	if !r.redact.active() {
		return ae
	}
	detail := ae.Detail
	if detail == "" && ae.Underlying != nil {
		detail = ae.Underlying.Error()
	}
	return &AskError{Kind: ae.Kind, Detail: r.redact.String(detail), Underlying: r.redact.underlying(ae.Underlying)}
}

// copyMap deep-copies a with: block (nil stays nil).
func copyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return jsonvalue.CopyAsJSON(m).(map[string]any)
}
