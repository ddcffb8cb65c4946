package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/cassettehead"
	"kitsoki/internal/duration"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/agent"
)

// HostCassette answers host calls from a recorded `kind: host_cassette`
// file (trace-eval.md part B): every handler named by an episode's
// match.handler is served by the cassette instead of its live handler. A
// call that matches no episode is an error naming the call and the
// available episodes. host.agent.* episodes with an agent: block write the
// agent.call.* events of the recording.
type HostCassette struct {
	Path      string
	AppID     string
	phaseFrom *regexp.Regexp
	episodes  []*hostEpisode
	handlers  map[string]bool

	mu     sync.Mutex
	played map[int]bool
	counts map[string]int
}

type hostEpisode struct {
	ID       string         `yaml:"id"`
	Match    map[string]any `yaml:"match"`
	Replay   string         `yaml:"replay"`
	Delay    string         `yaml:"delay"`
	Response struct {
		Data       any    `yaml:"data"`
		Error      string `yaml:"error"`
		InfraError string `yaml:"infra_error"`
	} `yaml:"response"`
	Agent *struct {
		Verb           string  `yaml:"verb"`
		Agent          string  `yaml:"agent"`
		Model          string  `yaml:"model"`
		DurationMS     int64   `yaml:"duration_ms"`
		PromptTokens   int64   `yaml:"prompt_tokens"`
		ResponseTokens int64   `yaml:"response_tokens"`
		CostUSD        float64 `yaml:"cost_usd"`
		Prompt         string  `yaml:"prompt"`
		Input          any     `yaml:"input"`
		Response       string  `yaml:"response"`
		Error          string  `yaml:"error"`
		CallID         string  `yaml:"call_id"`
		// ResponseJSON is response_json:, the exact submission
		// (cassettehead.ResponseJSON); it wins over Response.
		ResponseJSON yaml.Node       `yaml:"response_json"`
		exact        json.RawMessage `yaml:"-"`
	} `yaml:"agent"`
}

// LoadHostCassette reads a host cassette file.
func LoadHostCassette(path string) (*HostCassette, error) {
	data, err := safefile.ReadFile(path, safefile.Data)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", path, safefile.Reason(err))
	}
	return ParseHostCassette(path, data)
}

// ParseHostCassette parses host cassette bytes; name appears in errors.
func ParseHostCassette(abs string, data []byte) (*HostCassette, error) {
	var doc struct {
		cassettehead.Header `yaml:",inline"`
		Episodes            []*hostEpisode `yaml:"episodes"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, cassettehead.YAMLError(abs, err)
	}
	phaseFrom, err := doc.Check(abs, "kitsoki run replays only; recording is not supported here")
	if err != nil {
		return nil, err
	}
	hc := &HostCassette{Path: abs, AppID: doc.AppID, phaseFrom: phaseFrom, episodes: doc.Episodes, handlers: map[string]bool{},
		played: map[int]bool{}, counts: map[string]int{}}
	for i, ep := range doc.Episodes {
		if ep == nil {
			return nil, cassettehead.EmptyEpisode(abs, i)
		}
		ep.Match, _ = jsonvalue.Normalize(ep.Match).(map[string]any)
		ep.Response.Data = jsonvalue.Normalize(ep.Response.Data)
		h, _ := ep.Match["handler"].(string)
		if h == "" {
			return nil, fmt.Errorf("cassette: %q: episode %q: match.handler is required", abs, ep.ID)
		}
		if ep.Delay != "" {
			if _, err := duration.Parse(ep.Delay); err != nil {
				return nil, fmt.Errorf("cassette: %q: episode %q: delay: %v", abs, ep.ID, err)
			}
		}
		if ep.Agent != nil {
			if ep.Agent.exact, err = cassettehead.ResponseJSON(abs, ep.ID, &ep.Agent.ResponseJSON); err != nil {
				return nil, err
			}
		}
		hc.handlers[h] = true
	}
	return hc, nil
}

// Handles reports whether the cassette serves handler h: an episode names
// it, or names a prefix of it (host.x serves host.x.op, with args.op = op).
func (hc *HostCassette) Handles(h string) bool {
	_, _, ok := hc.route(h)
	return ok
}

// route returns the handler name the episodes use for h and the op suffix
// when a prefix handler serves it.
func (hc *HostCassette) route(h string) (handler, op string, ok bool) {
	if hc == nil {
		return "", "", false
	}
	if hc.handlers[h] {
		return h, "", true
	}
	for p := h; ; {
		i := strings.LastIndexByte(p, '.')
		if i <= 0 {
			return "", "", false
		}
		p = p[:i]
		if hc.handlers[p] {
			return p, strings.TrimPrefix(h, p+"."), true
		}
	}
}

// Handlers lists the handlers the cassette serves, sorted.
func (hc *HostCassette) Handlers() []string {
	return slices.Sorted(maps.Keys(hc.handlers))
}

func (hc *HostCassette) match(handler, statePath string, args map[string]any) (*hostEpisode, int, error) {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	phase := statePath
	if hc.phaseFrom != nil {
		phase = ""
		if m := hc.phaseFrom.FindStringSubmatch(statePath); len(m) > 1 {
			phase = m[1]
		}
	} else if i := strings.IndexByte(phase, '.'); i >= 0 {
		phase = phase[:i]
	}
	for i, ep := range hc.episodes {
		if hc.played[i] && ep.Replay != "any" {
			continue
		}
		ok := true
		for k, want := range ep.Match {
			var got any
			switch k {
			case "handler":
				got = handler
			case "phase":
				got = phase
			case "schema_name":
				if s, ok := args["schema"].(string); ok {
					got = filepath.Base(s)
				}
			default:
				got = args[k]
			}
			if !valuesEqual(got, want) {
				ok = false
				break
			}
		}
		if ok {
			hc.played[i] = true
			idx := hc.counts[ep.ID]
			hc.counts[ep.ID] = idx + 1
			return ep, idx, nil
		}
	}
	ids := make([]string, len(hc.episodes))
	for i, ep := range hc.episodes {
		ids[i] = ep.ID
	}
	return nil, 0, fmt.Errorf("cassette miss: no episode matched handler=%q args=%v; available episodes: [%s]", handler, args, strings.Join(ids, " "))
}

func valuesEqual(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta == tb && ta.Comparable() && a == b {
		return true
	}
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// play answers one call from the cassette.
func (hc *HostCassette) play(ctx context.Context, r *runner, e *Effect, args map[string]any) (map[string]any, string, error) {
	handler, op, _ := hc.route(e.Invoke)
	if op != "" {
		args = shallowWith(args, "op", op)
	}
	ep, idx, err := hc.match(handler, r.turnState, args)
	if err != nil {
		return nil, "", err
	}
	if _, virtual := r.clock.(*VirtualClock); ep.Delay != "" && !virtual {
		// a virtual clock never sleeps: the delay is virtual time that
		// nothing advances during a foreground call (upstream hangs, ⚠)
		d, _ := duration.Parse(ep.Delay)
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, "", ctx.Err()
		case <-t.C:
		}
	}
	callID := ""
	if ep.Agent != nil {
		appID := hc.AppID
		if appID == "" {
			appID = r.m.AppID
		}
		callID = agent.CassetteCallID(appID, ep.ID, idx)
		verb := ep.Agent.Verb
		if verb == "" {
			verb = strings.TrimPrefix(e.Invoke, "host.agent.")
		}
		start := &agent.CallStartPayload{Verb: verb, Agent: ep.Agent.Agent, Model: ep.Agent.Model, Prompt: ep.Agent.Prompt}
		if in, ok := jsonvalue.Normalize(ep.Agent.Input).(map[string]any); ok {
			start.Input = in
		}
		if err := r.opts.emitRaw(Event{Turn: r.turn, Kind: agent.EventCallStart, StatePath: r.cur.Path, CallID: callID,
			EpisodeID: ep.ID, MatchIdx: idx, Payload: start}); err != nil {
			return nil, callID, err
		}
		if ep.Agent.Error != "" {
			if err := r.opts.emitRaw(Event{Turn: r.turn, Kind: agent.EventCallError, StatePath: r.cur.Path, CallID: callID,
				Payload: &agent.CallErrorPayload{Verb: verb, Agent: ep.Agent.Agent, DurationMS: ep.Agent.DurationMS, Error: ep.Agent.Error}}); err != nil {
				return nil, callID, err
			}
		} else {
			var resp any
			if s := ep.Agent.Response; s != "" {
				if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
					resp = json.RawMessage(t)
				} else {
					resp = s
				}
			}
			if ep.Agent.exact != nil {
				resp = ep.Agent.exact
			}
			var meta map[string]any
			if ep.Agent.PromptTokens > 0 || ep.Agent.ResponseTokens > 0 || ep.Agent.CostUSD > 0 {
				meta = map[string]any{}
				usage := map[string]any{}
				if ep.Agent.PromptTokens > 0 {
					usage["input_tokens"] = ep.Agent.PromptTokens
				}
				if ep.Agent.ResponseTokens > 0 {
					usage["output_tokens"] = ep.Agent.ResponseTokens
				}
				if len(usage) > 0 {
					meta["usage"] = usage
				}
				if ep.Agent.CostUSD > 0 {
					meta["cost_usd"] = ep.Agent.CostUSD
				}
			}
			if err := r.opts.emitRaw(Event{Turn: r.turn, Kind: agent.EventCallComplete, StatePath: r.cur.Path, CallID: callID,
				Payload: cassetteComplete{Verb: verb, Agent: ep.Agent.Agent, Model: ep.Agent.Model, DurationMS: ep.Agent.DurationMS,
					Response: resp, Meta: meta}}); err != nil {
				return nil, callID, err
			}
		}
	}
	if ep.Response.InfraError != "" {
		return nil, callID, fmt.Errorf("cassette episode %q: infra error: %s", ep.ID, ep.Response.InfraError)
	}
	if ep.Response.Error != "" {
		return nil, callID, fmt.Errorf("%s", ep.Response.Error)
	}
	data, _ := jsonvalue.Normalize(ep.Response.Data).(map[string]any)
	if data == nil {
		data = map[string]any{}
	}
	if isAgentHandler(e.Invoke) {
		if _, ok := data["submitted"]; !ok {
			if s, ok := data["submission"]; ok {
				data["submitted"] = jsonvalue.Normalize(s)
			}
		}
	}
	return data, callID, nil
}

// cassetteComplete is agent.call.complete on the cassette path (B.2).
type cassetteComplete struct {
	Verb       string         `json:"verb"`
	Agent      string         `json:"agent,omitempty"`
	Model      string         `json:"model,omitempty"`
	DurationMS int64          `json:"duration_ms"`
	Response   any            `json:"response,omitempty"`
	Meta       map[string]any `json:"meta,omitempty"`
}

func (o *Options) emitRaw(ev Event) error {
	if o.Sink == nil {
		return nil
	}
	if ev.TS.IsZero() {
		ev.TS = time.Now()
	}
	return o.Sink.Emit(ev)
}

func shallowWith(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for kk, vv := range m {
		out[kk] = vv
	}
	out[k] = v
	return out
}

// Remaining lists the ids of the episodes never played, in file order
// (strict_cassette_coverage).
func (hc *HostCassette) Remaining() []string {
	if hc == nil {
		return nil
	}
	hc.mu.Lock()
	defer hc.mu.Unlock()
	var out []string
	for i, ep := range hc.episodes {
		if !hc.played[i] {
			id := ep.ID
			if id == "" {
				id = fmt.Sprintf("#%d", i+1)
			}
			out = append(out, id)
		}
	}
	return out
}
