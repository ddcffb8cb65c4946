package agent

import (
	"context"
	"log/slog"
	"maps"
	"time"

	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
)

// Validation-reject fallback (seed §9): a builtin.local_llm answer that
// fails kitsoki's schema check would fail again on the same model, so the
// call is re-dispatched once to agent.claude with the identical request
// (same call_id, prompt, schema, soft deadline; what is left of the hard
// one). The call stays one start/complete pair; the result event carries
// the substitution. Only [Substituter] transports fall back, and never an
// alias that is agent.claude itself (docs/compat/agent-contract.md §6).

// Substitution records that a call's answer came from a fallback agent.
// The first three keys are the trace contract; original_error keeps the
// rejected answer's validation error for the audit.
type Substitution struct {
	Reason         string `json:"reason"`
	OriginalPlugin string `json:"original_plugin"`
	FallbackPlugin string `json:"fallback_plugin"`
	OriginalError  string `json:"original_error,omitempty"`
}

// fallbackAlias is the agent a rejected local-model answer goes to.
const fallbackAlias = story.DefaultAgentAlias

// Substituter is implemented by transports whose schema_invalid answers
// are re-dispatched once to agent.claude (builtin.local_llm's, in
// pkg/agent/localllm).
type Substituter interface {
	SubstituteOnSchemaInvalid() bool
}

// substitutes reports whether a schema_invalid answer of alias (served by
// t) falls back.
func substitutes(alias string, t Transport) bool {
	s, ok := t.(Substituter)
	return ok && s.SubstituteOnSchemaInvalid() && alias != fallbackAlias
}

// fallback re-dispatches the rejected call to FallbackAlias and reports
// the outcome with the substitution.
func (r *Registry) fallback(ctx context.Context, st *callState, req *AskRequest, sch *schema.Schema, res *Result, rejected *AskError, timeout time.Duration) (*Result, error) {
	st.sub = &Substitution{
		Reason:         string(KindSchemaInvalid),
		OriginalPlugin: st.alias,
		FallbackPlugin: fallbackAlias,
		OriginalError:  r.redact.String(rejected.Error()),
	}
	r.log.Debug("agent call falls back", slog.String("alias", st.alias), slog.String("call_id", st.callID),
		slog.String("fallback", fallbackAlias), slog.String("rejected", st.sub.OriginalError))
	_, ft, err := r.Resolve(fallbackAlias)
	if err != nil {
		return st.fail(Errorf(KindTransportError, "local_llm fallback: %s rejected by the schema, and %s cannot answer instead: %v", st.alias, fallbackAlias, err))
	}
	remaining := timeout - time.Since(st.start)
	if remaining <= 0 {
		return st.fail(ContextError(fallbackAlias, context.DeadlineExceeded))
	}
	resp, late, askErr := askWithDeadline(withNotes(withCall(ctx, callExtras{model: st.c.Model}), st.notes), ft, fallbackAlias, req, remaining, r.lateWait())
	if askErr != nil {
		st.late = late
		return st.fail(askErr)
	}
	st.keepTranscript(resp.Transcript)
	resp.Reply = nil // the call stays the local model's: its result keeps the plugin's shape
	a, verr := r.checkAnswer(fallbackAlias, req.CallID, sch, resp)
	if verr != nil {
		return st.fail(verr)
	}
	meta := make(map[string]any, len(resp.Meta)+1)
	maps.Copy(meta, resp.Meta)
	meta["fallback_of"] = st.alias
	resp.Meta = meta
	return st.complete(ctx, resp, a, res)
}
