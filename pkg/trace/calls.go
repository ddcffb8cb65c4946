package trace

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"
	"unique"

	"kitsoki/internal/agentcall"
	"kitsoki/internal/human"
)

// Call is one agent call paired from its agent.call.* events by call_id,
// with its sub-events counted.
type Call struct {
	CallID    string `json:"call_id"`
	Turn      int    `json:"turn"`
	StatePath string `json:"state_path,omitempty"`
	Verb      string `json:"verb,omitempty"`
	Agent     string `json:"agent,omitempty"`
	Model     string `json:"model,omitempty"` // the model that answered, else the one asked for
	// RequestModel is the model agent.call.start asked for (a fallback
	// may answer with another).
	RequestModel string    `json:"request_model,omitempty"`
	EpisodeID    string    `json:"episode_id,omitempty"`
	Start        time.Time `json:"start"`
	DurationMS   int64     `json:"duration_ms"`
	InputTokens  int64     `json:"input_tokens"`
	OutputTokens int64     `json:"output_tokens"`
	// Cache*Tokens are the input tokens read from or written to a
	// provider's prompt cache, when its meta.usage says.
	CacheReadTokens     int64           `json:"cache_read_input_tokens,omitempty"`
	CacheCreationTokens int64           `json:"cache_creation_input_tokens,omitempty"`
	CostUSD             float64         `json:"cost_usd"`
	Outcome             string          `json:"outcome"`              // "ok", "error", or "open" (no result in the trace)
	ErrorKind           string          `json:"error_kind,omitempty"` // e.g. schema_invalid
	Error               string          `json:"error,omitempty"`
	Substitution        *Substitution   `json:"substitution,omitempty"`
	SubEvents           int             `json:"sub_events"`
	Prompt              string          `json:"-"` // inline prompt, if any
	PromptFile          string          `json:"prompt_file,omitempty"`
	Input               json.RawMessage `json:"-"`
	Response            json.RawMessage `json:"-"` // inline response, if any
	ResponseFile        string          `json:"response_file,omitempty"`
	// MCPSessionID is the session an mcp_http server gave the call
	// (agent.call.complete/error's mcp_session_id), to find it in that
	// server's logs.
	MCPSessionID string `json:"mcp_session_id,omitempty"`
	// Stray are the lines the plugin wrote that answered no waiting call,
	// as the call's result event lists them: at most MaxStray kept, each
	// clipped to MaxStrayBytes, then one line counting the rest.
	Stray     []string `json:"stray,omitempty"`
	StartLine int      `json:"-"`
}

// MaxStray and MaxStrayBytes bound what a Call keeps of its event's stray
// list: the writer keeps 8 lines of some 300 bytes and a count, so a
// longer list or line is a trace someone else wrote, read at its size in
// the line but never held whole (a 64 MiB line of "" would be 22 million
// strings).
const (
	MaxStray      = 8
	MaxStrayBytes = 1024
)

// Substitution records a fallback: the call was re-dispatched to another
// plugin under the same call_id.
type Substitution struct {
	Reason         string `json:"reason,omitempty"`
	OriginalPlugin string `json:"original_plugin,omitempty"`
	FallbackPlugin string `json:"fallback_plugin,omitempty"`
	OriginalError  string `json:"original_error,omitempty"`
}

// Outcomes of a Call.
const (
	OutcomeOK    = "ok"
	OutcomeError = "error"
	OutcomeOpen  = "open"
)

// CallTracker pairs agent events into Calls while a trace streams by,
// holding only the open calls, each as an openCall: what its start said,
// its names interned (a trace of many calls that never finish repeats a
// few verbs, agents, models and states).
type CallTracker struct {
	// KeepPrompt decodes inline prompts into Call.Prompt (summaries that do
	// not show prompts leave it off: decoding a long prompt costs).
	KeepPrompt bool
	// KeepInput keeps each call's input (Call.Input) while it is open:
	// only a cassette writes it, and a trace of many open calls would hold
	// every one.
	KeepInput bool
	open      map[string]*openCall
	// order is the calls in start order, the closed ones dropped lazily
	// (removing each from the middle is quadratic in overlapping calls).
	order []*openCall
}

// openCall is what a Call holds before its result, about half a Call's
// size: a trace of many calls that never finish holds one per call.
type openCall struct {
	id, statePath, verb, agent, model, episodeID string // model: the one asked for
	prompt, promptFile                           string
	input                                        json.RawMessage
	start                                        time.Time
	turn, startLine, subEvents                   int
}

func newOpenCall(ev *Event) *openCall {
	return &openCall{id: ev.CallID, turn: ev.Turn, statePath: interned(ev.StatePath), start: ev.TS, startLine: ev.Line}
}

// call is the Call o is so far (its outcome open).
func (o *openCall) call() *Call {
	return &Call{CallID: o.id, Turn: o.turn, StatePath: o.statePath, Verb: o.verb, Agent: o.agent, Model: o.model,
		RequestModel: o.model, EpisodeID: o.episodeID, Start: o.start, Outcome: OutcomeOpen, SubEvents: o.subEvents,
		Prompt: o.prompt, PromptFile: o.promptFile, Input: o.input, StartLine: o.startLine}
}

// interned is s as one copy shared by every call naming it.
func interned(s string) string {
	if s == "" {
		return ""
	}
	return unique.Make(s).Value()
}

// agentPayload is the union of the agent.call.* payload fields.
type agentPayload struct {
	Verb         string          `json:"verb"`
	Agent        string          `json:"agent"`
	Model        string          `json:"model"`
	Prompt       string          `json:"prompt"`
	PromptFile   string          `json:"prompt_file"`
	Input        json.RawMessage `json:"input"`
	DurationMS   float64         `json:"duration_ms"` // truncated to whole ms
	Response     json.RawMessage `json:"response"`
	ResponseFile string          `json:"response_file"`
	Meta         *callMeta       `json:"meta"`
	Error        string          `json:"error"`
	Substitution *Substitution   `json:"substitution"`
	MCPSessionID string          `json:"mcp_session_id"`
	Stray        json.RawMessage `json:"stray"`
}

type callMeta struct {
	Usage   agentcall.Usage `json:"usage"`
	CostUSD float64         `json:"cost_usd"`
	Model   string          `json:"model"`
}

// defaultAgent is the agent of a call whose events name none: the alias
// an empty one resolves to (agent-contract.md).
const defaultAgent = "agent.claude"

// AgentName is the call's agent, defaultAgent when its events name none.
func (c *Call) AgentName() string { return cmp.Or(c.Agent, defaultAgent) }

// IsAgentCallKind reports whether kind is agent.call.start/complete/error.
func IsAgentCallKind(kind string) bool {
	return kind == "agent.call.start" || kind == "agent.call.complete" || kind == "agent.call.error"
}

// Observe feeds one event. It returns the call that ev completes (an
// agent.call.complete or agent.call.error), or nil.
func (t *CallTracker) Observe(ev *Event) *Call {
	if ev.CallID == "" {
		return nil
	}
	if !IsAgentCallKind(ev.Kind) {
		if o := t.open[ev.CallID]; o != nil {
			o.subEvents++
		}
		return nil
	}
	var p agentPayload
	if raw, ok := ev.Payload.(json.RawMessage); ok && len(raw) > 0 {
		_ = json.Unmarshal(raw, &p) // members of an unexpected type stay empty
		if !t.KeepPrompt {
			p.Prompt = ""
		}
	}
	o := t.open[ev.CallID]
	if ev.Kind == "agent.call.start" {
		if o == nil {
			o = newOpenCall(ev)
			if t.open == nil {
				t.open = map[string]*openCall{}
			}
			t.open[ev.CallID] = o
			t.order = append(t.order, o)
		}
		o.verb = interned(cmp.Or(p.Verb, o.verb))
		o.agent = interned(cmp.Or(p.Agent, o.agent))
		o.model = interned(cmp.Or(p.Model, o.model))
		o.episodeID = cmp.Or(ev.EpisodeID, o.episodeID)
		o.prompt = cmp.Or(p.Prompt, o.prompt)
		o.promptFile = cmp.Or(p.PromptFile, o.promptFile)
		if len(p.Input) > 0 && t.KeepInput {
			o.input = p.Input
		}
		return nil
	}
	if o == nil {
		o = newOpenCall(ev) // a result with no start
	}
	c := o.call()
	c.Verb = cmp.Or(p.Verb, c.Verb)
	c.Agent = cmp.Or(p.Agent, c.Agent)
	c.Model = cmp.Or(p.Model, c.Model)
	c.DurationMS = int64(p.DurationMS)
	c.Substitution = p.Substitution
	c.MCPSessionID = human.Clip(p.MCPSessionID, MaxStrayBytes)
	c.Stray = strayList(p.Stray)
	if c.DurationMS == 0 && !c.Start.IsZero() && !ev.TS.IsZero() && ev.TS.After(c.Start) {
		c.DurationMS = ev.TS.Sub(c.Start).Milliseconds()
	}
	meta := p.Meta
	if meta == nil && len(p.Response) > 0 && p.Response[0] == '{' {
		var r struct {
			Meta *callMeta `json:"meta"`
		}
		if json.Unmarshal(p.Response, &r) == nil {
			meta = r.Meta
		}
	}
	if meta != nil {
		c.InputTokens, c.OutputTokens, c.CostUSD = meta.Usage.InputTokens, meta.Usage.OutputTokens, meta.CostUSD
		c.CacheReadTokens, c.CacheCreationTokens = meta.Usage.CacheReadInputTokens, meta.Usage.CacheCreationInputTokens
		c.Model = cmp.Or(c.Model, meta.Model)
	}
	if ev.Kind == "agent.call.error" {
		c.Outcome = OutcomeError
		c.Error = p.Error
		c.ErrorKind = errorKind(p.Error)
	} else {
		c.Outcome = OutcomeOK
		c.Response = p.Response
		c.ResponseFile = p.ResponseFile
	}
	t.close(ev.CallID)
	return c
}

func (t *CallTracker) close(id string) {
	delete(t.open, id)
	if len(t.order) > 64 && len(t.order) > 2*len(t.open) {
		t.order = slices.DeleteFunc(t.order, func(o *openCall) bool { return !t.isOpen(o) })
	}
}

// isOpen reports whether o is the open call of its id (a later call may
// reuse the id of a closed one).
func (t *CallTracker) isOpen(o *openCall) bool { return t.open[o.id] == o }

// Open yields the calls that started but have no result, in start order,
// each made as it is yielded (a trace of many unfinished calls never
// holds them all as Calls).
func (t *CallTracker) Open() iter.Seq[*Call] {
	return func(yield func(*Call) bool) {
		for _, o := range t.order {
			if t.isOpen(o) && !yield(o.call()) {
				return
			}
		}
	}
}

// OpenCount is the number of calls that started but have no result.
func (t *CallTracker) OpenCount() int { return len(t.open) }

// isSubEvent reports whether ev belongs to an open call (not being one of
// its agent.call.* events).
func (t *CallTracker) isSubEvent(ev *Event) bool {
	return ev.CallID != "" && !IsAgentCallKind(ev.Kind) && t.open[ev.CallID] != nil
}

// errorKind extracts the kind from an agent error text "agent: <kind>: ...";
// texts of another shape give "error".
func errorKind(msg string) string {
	rest, ok := strings.CutPrefix(msg, "agent: ")
	if !ok {
		return "error"
	}
	kind, _, _ := strings.Cut(rest, ":")
	kind = strings.TrimSpace(kind)
	if kind == "" || strings.ContainsAny(kind, " \t") {
		return "error"
	}
	return kind
}

// submissionOf is the "submission" member of a {submission, meta}
// response, else the response itself.
func submissionOf(resp json.RawMessage) json.RawMessage {
	if len(resp) == 0 {
		return nil
	}
	if resp[0] == '{' {
		var r map[string]json.RawMessage
		if json.Unmarshal(resp, &r) == nil {
			if s, ok := r["submission"]; ok {
				return s
			}
		}
	}
	return resp
}

// strayList decodes an event's stray member, keeping at most MaxStray
// strings (each clipped to MaxStrayBytes) and a line counting the rest;
// members that are not strings are counted with them. Anything but an
// array is no list.
func strayList(raw json.RawMessage) []string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	var out []string
	more := 0
	for len(out) < MaxStray && dec.More() {
		var m json.RawMessage
		if dec.Decode(&m) != nil {
			return out
		}
		var s string
		if m[0] == '"' && json.Unmarshal(m, &s) == nil {
			out = append(out, human.Clip(s, MaxStrayBytes))
		} else {
			more++
		}
	}
	if len(out) == MaxStray {
		more += countMembers(raw[dec.InputOffset():])
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("... and %d more stray lines", more))
	}
	return out
}

// countMembers counts the members left in a JSON array after one was
// read: the commas outside strings at the array's own depth. The line was
// valid JSON when it was read, so this is the count, without decoding
// them (a 64 MiB line of "" is 22 million).
func countMembers(rest []byte) int {
	n, depth, inStr, esc := 0, 0, false, false
	for _, b := range rest {
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case b == '\\':
				esc = true
			case b == '"':
				inStr = false
			}
		case b == '"':
			inStr = true
		case b == '[' || b == '{':
			depth++
		case b == ']' || b == '}':
			if depth == 0 {
				return n
			}
			depth--
		case b == ',' && depth == 0:
			n++
		}
	}
	return n
}
