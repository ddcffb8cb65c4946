package agent

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Model-visible = logged (seed 002): agent.call.start records the request
// exactly as the plugin receives it (after the pre-dispatch hooks), and
// agent.call.error keeps what a plugin returned even when its answer was
// refused. Deadlines: the soft deadline a plugin is told is the real one.

// lateGrace is how long a call whose hard deadline passed waits for its
// cancelled transport to return, so that an answer produced anyway is
// recorded as discarded rather than lost without a trace.
const lateGrace = 2 * time.Second

// lateWait is the registry's lateGrace: lateGraceOverride when set (a test
// whose late answer must be recorded however loaded the machine is).
func (r *Registry) lateWait() time.Duration { return cmp.Or(max(r.lateGraceOverride, 0), lateGrace) }

// softDeadline is AskRequest.deadline: the earliest of the caller's
// Deadline, the call's hard timeout and the context's own deadline (a
// run's --timeout), so a plugin is never told it has longer than it has.
func softDeadline(ctx context.Context, asked, start time.Time, timeout time.Duration) time.Time {
	d := start.Add(timeout)
	if !asked.IsZero() && asked.Before(d) {
		d = asked
	}
	if cd, ok := ctx.Deadline(); ok && cd.Before(d) {
		d = cd
	}
	return d.UTC()
}

// persona is the named persona's resolved system prompt ("" when none)
// and its inherit_claude_default.
func (r *Registry) persona(name string) (systemPrompt string, inherit bool) {
	p := r.personas[name]
	if p == nil {
		return "", false
	}
	return p.SystemPromptResolved, p.InheritClaudeDefault != nil && *p.InheritClaudeDefault
}

// logRequest fills the request half of agent.call.start, masked.
func (r *Registry) logRequest(p *CallStartPayload, alias, sysPrompt string, req *AskRequest, timeout time.Duration) {
	p.Alias = alias
	p.Provider = r.providerOf(alias)
	p.SystemPrompt = r.redact.String(sysPrompt)
	if len(req.With) > 0 {
		p.With = r.redact.mapValue(req.With)
	}
	if len(req.Schema) > 0 {
		p.Schema = json.RawMessage(r.redact.raw(compactJSON(req.Schema)))
	}
	p.Deadline = req.Deadline.Format(time.RFC3339Nano)
	p.TimeoutMS = timeout.Milliseconds()
}

// logRefused adds to agent.call.error what the plugin returned with an
// answer that was refused: a vetoed answer's meta, a late answer.
func (r *Registry) logRefused(p *CallErrorPayload, st *callState, ae *AskError) {
	if st.meta != nil {
		p.Meta = r.redact.mapValue(st.meta)
	}
	if ae.Kind == KindDeadlineExceeded {
		p.TimeoutMS = st.timeout.Milliseconds()
	}
	if st.late != nil {
		d := &CallResponse{Meta: r.redact.mapValue(st.late.Meta)}
		if sub := r.redact.raw(st.late.Submission); len(sub) > 0 {
			// masked as written, then read: a secret spanning the JSON
			// syntax is in no one string of the value
			var v any
			if json.Unmarshal(sub, &v) == nil {
				d.Submission = v
			} else {
				d.Submission = string(sub)
			}
		}
		p.Discarded = d
		if p.Meta == nil {
			p.Meta = d.Meta
		}
	}
}

// deadlineError is the deadline_exceeded (or cancellation) error of a call
// whose context ended: it says which deadline it was.
func deadlineError(parent context.Context, alias string, err error, timeout time.Duration) *AskError {
	switch perr := parent.Err(); {
	case errors.Is(perr, context.Canceled) || (perr == nil && errors.Is(err, context.Canceled)):
		return &AskError{Kind: KindDeadlineExceeded, Detail: alias + ": call cancelled before the agent answered", Underlying: err}
	case perr != nil:
		return &AskError{Kind: KindDeadlineExceeded, Underlying: err,
			Detail: alias + ": the run's own deadline passed before the agent answered (kitsoki run --timeout); the answer, if any, is discarded"}
	}
	return &AskError{Kind: KindDeadlineExceeded, Underlying: err,
		Detail: fmt.Sprintf("%s: hard deadline exceeded: no answer within the call's timeout of %s (set it with timeout: on the invoke or --call-timeout); a late answer is discarded", alias, timeout)}
}

// compactJSON returns raw without insignificant whitespace (raw itself
// when it does not parse).
func compactJSON(raw []byte) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}
