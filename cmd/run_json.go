package cmd

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/engine"
)

// runSchemaVersion is the "schema" of run --json: bump it when a field
// changes meaning or disappears (adding an optional field does not).
const runSchemaVersion = 1

// runSchema is the JSON Schema of the run --json output (kitsoki schema run).
//
//go:embed run.schema.json
var runSchema []byte

// Outcomes of a run that did not start, beside engine's exit, terminal,
// failed and rested.
const (
	outcomeInvalid = "invalid" // the story does not load or compile
	outcomeUsage   = "usage"   // a bad flag value, world override, cassette or profile
)

// runJSON is the run --json output; run.schema.json describes it.
type runJSON struct {
	Schema      int               `json:"schema"`
	Outcome     string            `json:"outcome"`
	Status      int               `json:"status"`
	Exit        *string           `json:"exit,omitempty"`
	State       *string           `json:"state,omitempty"`
	Error       string            `json:"error,omitempty"`
	World       map[string]any    `json:"world,omitempty"`
	Calls       []callJSON        `json:"calls,omitempty"`
	Trace       *string           `json:"trace,omitempty"`
	Session     *string           `json:"session,omitempty"`
	Unconsumed  int               `json:"unconsumed,omitempty"`
	Diagnostics []diag.Diagnostic `json:"diagnostics,omitempty"`
	// Jobs are the run's background jobs (how each ended), Inbox its
	// notifications (host.inbox.add and job notices).
	Jobs  []engine.JobInfo   `json:"jobs,omitempty"`
	Inbox []engine.InboxItem `json:"inbox,omitempty"`

	ended bool // the run ran: exit, state, world, calls, trace, session are always written
}

// MarshalJSON writes the fields every ended run has even when empty
// (exit null, calls [], world {}).
func (r runJSON) MarshalJSON() ([]byte, error) {
	type plain runJSON
	if !r.ended {
		return json.Marshal(plain(r))
	}
	type ended struct {
		plain
		Exit    *string            `json:"exit"`
		State   string             `json:"state"`
		World   map[string]any     `json:"world"`
		Calls   []callJSON         `json:"calls"`
		Trace   string             `json:"trace"`
		Session string             `json:"session"`
		Jobs    []engine.JobInfo   `json:"jobs"`
		Inbox   []engine.InboxItem `json:"inbox"`
	}
	e := ended{plain: plain(r), Exit: r.Exit, World: r.World, Calls: nonNil(r.Calls), Jobs: nonNil(r.Jobs), Inbox: nonNil(r.Inbox)}
	e.State, e.Trace, e.Session = deref(r.State), deref(r.Trace), deref(r.Session)
	if e.World == nil {
		e.World = map[string]any{}
	}
	return json.Marshal(e)
}

// nonNil is s, or an empty slice for nil: JSON [] rather than null.
func nonNil[S ~[]E, E any](s S) S {
	if s == nil {
		return S{}
	}
	return s
}

// deref is *p, or the zero value for nil.
func deref[T any](p *T) (v T) {
	if p != nil {
		v = *p
	}
	return v
}

// callJSON is one call of calls[]: the summary with its error as an object.
type callJSON struct {
	engine.CallSummary
	Error *callError `json:"error,omitempty"`
}

// callError is {kind, detail}: the kind of the plugin contract (or
// host_error, agent_error, interrupted) and the text without it.
type callError struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
}

// classifyCallError splits a call's error text ("agent: <kind>: <detail>",
// the form traces carry) into kind and detail.
func classifyCallError(handler, msg string, ok bool) *callError {
	if ok {
		return nil
	}
	if kind, detail, ok := agent.ParseError(msg); ok {
		return &callError{Kind: string(kind), Detail: detail}
	}
	switch {
	case strings.HasSuffix(msg, "context canceled") || strings.HasSuffix(msg, "context deadline exceeded"):
		return &callError{Kind: "interrupted", Detail: msg}
	case strings.HasPrefix(handler, "host.agent."):
		return &callError{Kind: "agent_error", Detail: msg}
	default:
		return &callError{Kind: "host_error", Detail: msg}
	}
}

// callsJSON converts the call summaries; when the run was stopped (Ctrl-C,
// --timeout) its last failed call is the one the stop cut short.
func callsJSON(cs []engine.CallSummary, stopped bool) []callJSON {
	out := make([]callJSON, 0, len(cs))
	for _, c := range cs {
		out = append(out, callJSON{CallSummary: c, Error: classifyCallError(c.Handler, diag.ClipMessage(c.Error), c.OK)})
	}
	if n := len(out); stopped && n > 0 && out[n-1].Error != nil {
		out[n-1].Error.Kind = "interrupted"
	}
	return out
}

// writeRunJSON prints the summary of a run that ran.
func writeRunJSON(w io.Writer, res *engine.Result, status int, msg, tracePath, session string) error {
	// NaN and ±Inf, which JSON cannot hold, are their texts ("NaN", "+Inf")
	world, _ := jsonvalue.NonFiniteText(res.World).(map[string]any)
	out := runJSON{Schema: runSchemaVersion, Outcome: res.Outcome, Status: status, Error: diag.ClipMessage(msg), World: world,
		Calls: callsJSON(res.Calls, errors.Is(res.Err, context.Canceled) || errors.Is(res.Err, context.DeadlineExceeded)), State: &res.State, Trace: &tracePath, Session: &session, Unconsumed: res.Unconsumed, Jobs: jobsJSON(res.Jobs), Inbox: res.Inbox, ended: true}
	if res.Outcome == engine.OutcomeExit {
		out.Exit = new(res.Exit)
	}
	return encodeRunJSON(w, out)
}

// jobsJSON is jobs with each result's NaN and ±Inf as their texts.
func jobsJSON(jobs []engine.JobInfo) []engine.JobInfo {
	out := slices.Clone(jobs)
	for i := range out {
		out[i].Result, _ = jsonvalue.NonFiniteText(out[i].Result).(map[string]any)
	}
	return out
}

func encodeRunJSON(w io.Writer, v runJSON) error {
	enc := json.NewEncoder(&jsonWriter{w: w}) // one Write per Encode: nothing is held
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return usagef("writing summary: %v", err)
	}
	return nil
}

// storyLoadError is an invalid story: the finding and its diagnostics,
// which run --json prints in its error object.
type storyLoadError struct {
	*exitError
	diags []diag.Diagnostic
}

// Unwrap returns the *exitError, so that the exit code is found.
func (e *storyLoadError) Unwrap() error { return e.exitError }

// invalidStory is the finding msg about a story with the diagnostics ds.
func invalidStory(ds []diag.Diagnostic, msg string) error {
	return &storyLoadError{exitError: &exitError{code: exitFinding, err: errors.New(msg)}, diags: ds}
}

// runJSONError prints an error that stopped run --json before its summary
// as the error object on stdout; later errors pass through.
func runJSONError(w io.Writer, err error) error {
	ee, ok := errors.AsType[*exitError](err)
	if !ok || ee.err == nil {
		return err
	}
	out := runJSON{Schema: runSchemaVersion, Outcome: outcomeInvalid, Status: ee.code, Error: diag.ClipMessage(ee.err.Error())}
	if ee.code == exitUsageEnv {
		out.Outcome = outcomeUsage
	}
	le, ok := errors.AsType[*storyLoadError](err)
	if ok {
		out.Diagnostics = le.diags
	}
	if (le != nil || out.Outcome == outcomeInvalid) && out.Diagnostics == nil {
		out.Diagnostics = []diag.Diagnostic{}
	}
	if werr := encodeRunJSON(w, out); werr != nil {
		return werr
	}
	return err
}
