package plugin

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/panicked"
)

// Point is a hook point.
type Point string

// Hook points.
const (
	pointPreDispatch Point = "agent/pre-dispatch" // alias, verb, prompt, with, schema_id; may rewrite prompt, with, alias; may halt
	pointPostReturn  Point = "agent/post-return"  // alias, verb, submission, meta; may halt
	pointHostPreCall Point = "host/pre-call"      // handler, args; may rewrite args; may halt
	pointRunStart    Point = "run/start"          // observational
	pointRunEnd      Point = "run/end"            // observational
)

// allPoints lists every hook point.
var allPoints = []Point{pointPreDispatch, pointPostReturn, pointHostPreCall, pointRunStart, pointRunEnd}

func (p Point) valid() bool { return slices.Contains(allPoints, p) }

// rewritable lists the payload keys a handler may change at a point.
func (p Point) rewritable() map[string]bool {
	switch p {
	case pointPreDispatch:
		return map[string]bool{"prompt": true, "with": true, "alias": true}
	case pointHostPreCall:
		return map[string]bool{"args": true}
	}
	return nil
}

// canHalt reports whether a halt at p stops the action (run/* are
// observational: a halt only stops later handlers).
func (p Point) canHalt() bool { return p != pointRunStart && p != pointRunEnd }

// Payload is a hook payload: a JSON object.
type Payload = map[string]any

// Outcomes a handler returns.
const (
	outcomeContinue = "continue"
	outcomeHalt     = "halt"
)

// Result is what a handler returns. Payload nil means "unchanged";
// otherwise it replaces the payload (only the point's rewritable keys may
// differ).
type Result struct {
	Outcome string  `json:"outcome"`
	Reason  string  `json:"reason,omitempty"`
	Payload Payload `json:"payload,omitempty"`
}

// Handler handles hook calls. It gets its own copy of the payload.
type Handler interface {
	Hook(ctx context.Context, point Point, payload Payload) (Result, error)
}

// Registration is one handler at one point, in chain order.
type Registration struct {
	Point    Point   `json:"point"`
	PluginID string  `json:"plugin"`
	OnError  string  `json:"on_error"`
	Handler  Handler `json:"-"`
}

// Hook outcome event kinds.
const (
	eventRewrote = "hook.rewrote"
	eventHalted  = "hook.halted"
	eventFailed  = "hook.failed"
)

// Event is one hook outcome, reported through the caller's emit function.
type Event struct {
	Kind    string
	Payload *EventPayload
}

// EventPayload is the trace payload of hook.* events.
type EventPayload struct {
	Point   Point    `json:"point"`
	Plugin  string   `json:"plugin"`
	Changed []string `json:"changed,omitempty"`
	// Values holds the new value of each changed key (hook.rewrote), with
	// the profile's secrets masked: what the hook made the call send.
	Values  map[string]any `json:"values,omitempty"`
	Reason  string         `json:"reason,omitempty"`
	Error   string         `json:"error,omitempty"`
	OnError string         `json:"on_error,omitempty"`
}

// Halt says which hook stopped an action and why.
type Halt struct {
	Point  Point
	Plugin string
	Reason string
}

func (h *Halt) Error() string {
	return fmt.Sprintf("hook %s at %s halted the call: %s", h.Plugin, h.Point, h.Reason)
}

// Chain runs the hook registrations of one run. It is safe for concurrent
// use; Close stops the external processes it started.
type Chain struct {
	regs    []Registration
	closers []func() error
	mask    func(string) string
}

// Has reports whether any handler is registered at p.
func (c *Chain) Has(p Point) bool {
	return c != nil && slices.ContainsFunc(c.regs, func(r Registration) bool { return r.Point == p })
}

// Close stops every process the chain started.
func (c *Chain) Close() error {
	if c == nil {
		return nil
	}
	var first error
	for _, f := range c.closers {
		if err := f(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Run runs the handlers registered at point in order, each on the payload
// the previous one left. It returns the final payload, or a *Halt when a
// handler halted (or failed with on_error: veto) at a point that can halt.
// emit receives every outcome event; an emit error ends the run with it.
func (c *Chain) Run(ctx context.Context, point Point, payload Payload, emit func(Event) error) (Payload, *Halt, error) {
	if c == nil {
		return payload, nil, nil
	}
	if emit == nil {
		emit = func(Event) error { return nil }
	}
	cur := payload
	for _, reg := range c.regs {
		if reg.Point != point {
			continue
		}
		res, err := callHandler(ctx, reg, point, cur)
		if err == nil {
			err = checkResult(point, cur, res)
		}
		var reason string
		switch {
		case err != nil:
			ev := &EventPayload{Point: point, Plugin: reg.PluginID, Error: c.mask(err.Error()), OnError: reg.OnError}
			if e := emit(Event{Kind: eventFailed, Payload: ev}); e != nil {
				return nil, nil, e
			}
			if reg.OnError != onErrorVeto {
				continue
			}
			reason = "hook failed and its on_error is veto: " + ev.Error
		case res.Outcome == outcomeHalt:
			reason = cmp.Or(c.mask(res.Reason), "no reason given")
		default:
			if changed := changedKeys(cur, res.Payload); len(changed) > 0 {
				next := maps.Clone(cur)
				for _, k := range changed {
					next[k] = res.Payload[k]
				}
				cur = next
				if e := emit(Event{Kind: eventRewrote, Payload: &EventPayload{Point: point, Plugin: reg.PluginID, Changed: changed, Values: c.rewrittenValues(changed, next)}}); e != nil {
					return nil, nil, e
				}
			}
			continue
		}
		if e := emit(Event{Kind: eventHalted, Payload: &EventPayload{Point: point, Plugin: reg.PluginID, Reason: reason}}); e != nil {
			return nil, nil, e
		}
		if point.canHalt() {
			return nil, &Halt{Point: point, Plugin: reg.PluginID, Reason: reason}, nil
		}
		return cur, nil, nil
	}
	return cur, nil, nil
}

// callHandler gives the handler a deep copy of the payload and turns a
// panic into an error.
func callHandler(ctx context.Context, reg Registration, point Point, p Payload) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicked.New(fmt.Sprintf("plugin %s, hook %s", reg.PluginID, point), "the hook handler", r)
		}
	}()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if _, ro := reg.Handler.(readOnly); ro {
		return reg.Handler.Hook(ctx, point, p)
	}
	return reg.Handler.Hook(ctx, point, jsonvalue.CopyMap(p))
}

// readOnly marks the package's own handlers, which never modify the
// payload they are given (no defensive copy needed).
type readOnly interface{ readsOnly() }

func (*budgetHook) readsOnly()  {}
func (*redactHook) readsOnly()  {}
func (*procHandler) readsOnly() {}
func (hostRunGate) readsOnly()  {}

// checkResult enforces the outcome values and the rewritable keys.
func checkResult(point Point, cur Payload, res Result) error {
	switch res.Outcome {
	case outcomeContinue, outcomeHalt:
	case "":
		return fmt.Errorf("hook answered without an outcome; answer {\"outcome\":\"continue\"} or {\"outcome\":\"halt\",\"reason\":...}")
	default:
		return fmt.Errorf("hook outcome %q is neither continue nor halt", res.Outcome)
	}
	if res.Payload == nil || res.Outcome == outcomeHalt {
		return nil
	}
	allowed := point.rewritable()
	for _, k := range changedKeys(cur, res.Payload) {
		if !allowed[k] {
			return fmt.Errorf("hook rewrote %q, which is read-only at %s (rewritable: %s)", k, point, keyList(allowed))
		}
		if err := checkType(k, res.Payload[k]); err != nil {
			return err
		}
	}
	return nil
}

func checkType(key string, v any) error {
	switch key {
	case "prompt":
		if _, ok := v.(string); !ok {
			return fmt.Errorf("hook rewrote prompt to %s; it must be a string", jsonvalue.WithArticle(jsonvalue.Kind(v)))
		}
	case "alias":
		s, ok := v.(string)
		switch {
		case !ok:
			return fmt.Errorf("hook rewrote alias to %s; it must be an agent alias like agent.claude", jsonvalue.WithArticle(jsonvalue.Kind(v)))
		case !strings.HasPrefix(s, "agent."):
			return fmt.Errorf("hook rewrote alias to %s; it must be an agent alias like agent.claude", strconv.Quote(s))
		}
	case "with", "args":
		if _, ok := v.(map[string]any); !ok && v != nil {
			return fmt.Errorf("hook rewrote %s to %s; it must be an object", key, jsonvalue.WithArticle(jsonvalue.Kind(v)))
		}
	}
	return nil
}

func keyList(m map[string]bool) string {
	if len(m) == 0 {
		return "none"
	}
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}

// changedKeys lists the keys whose value differs between a and b, sorted
// (a key missing from b counts as unchanged: handlers may answer with only
// the keys they rewrite).
func changedKeys(a, b Payload) []string {
	var out []string
	for k, bv := range b {
		if av, ok := a[k]; !ok || !jsonEqual(av, bv) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func jsonEqual(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// rewrittenValues is the new value of each changed key for hook.rewrote
// (model-visible = logged), a copy with every string masked with the
// chain's secrets, map keys included (maskJSON).
func (c *Chain) rewrittenValues(changed []string, next Payload) map[string]any {
	out := make(map[string]any, len(changed))
	for _, k := range changed {
		out[k] = next[k]
	}
	return maskJSON(c.mask, out)
}

// maskJSON is m with every string masked, map keys included (a secret
// echoed as a key is as much the secret). A secret no one string holds
// whole (one spanning the JSON syntax, `","`, or in a number) would
// survive that: when the masked map, encoded, still spells one, it is the
// encoded map masked and read again, or that text under "redacted" when it
// is not JSON (as an agent's meta is masked, pkg/agent).
func maskJSON(mask func(string) string, m map[string]any) map[string]any {
	if m == nil || mask == nil {
		return m
	}
	return jsonvalue.MaskEncoded(jsonvalue.MapStrings(m, mask, true).(map[string]any), mask, true)
}
