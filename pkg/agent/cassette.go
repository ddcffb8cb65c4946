package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"kitsoki/internal/agentcall"
	"kitsoki/internal/jsonvalue"
)

// Cassette is a host_cassette fixture (trace-eval.md part B) used as a
// deterministic replay transport. It is never declared in YAML: build it
// with LoadCassette and wire it with RegistryOptions.Cassette (every alias)
// or Registry.Register(alias, c.For(alias)).
//
// Matching: an agent call matches an episode whose every match: key equals
// the call's value. Keys: handler (the agent alias, or host.agent.<verb> for
// cassettes recorded on the host path), phase (the first dotted segment of
// the state path, or capture group 1 of phase_from), schema_name (the base
// name of with.schema), call (the invoke's id:), verb, and any key of the
// with: block. Episodes are tried top-down; a played episode is skipped
// unless it has replay: any. Each match gets match_idx = the number of
// earlier matches of that episode, and call_id = agentcall.ID(app_id,
// "<episode>:<match_idx>").
type Cassette struct {
	Path       string
	AppID      string
	AppVersion string
	RecordMode string
	PhaseFrom  *regexp.Regexp
	phaseInsts int // the instructions PhaseFrom compiles to (recost)
	MatchOn    []string
	Episodes   []*Episode

	mu      sync.Mutex
	played  []bool
	counts  map[string]int
	pending map[string]planned // planned call_id -> episode and match_idx
}

// Episode is one recorded exchange.
type Episode struct {
	ID       string
	Match    map[string]any
	Replay   string // "any" replays forever; otherwise once
	Delay    time.Duration
	Agent    *EpisodeAgent // nil for host-only episodes
	Response EpisodeResponse
}

// EpisodeAgent is what is read of an episode's agent: block (its turn,
// system_prompt and advisory call_id are not used).
// The keys read as they are carry their yaml tags; the others are read
// through rawAgent.
type EpisodeAgent struct {
	Verb           string  `yaml:"verb"`
	Agent          string  `yaml:"agent"`
	Model          string  `yaml:"model"`
	DurationMS     int64   `yaml:"duration_ms"`
	PromptTokens   int64   `yaml:"prompt_tokens"`
	ResponseTokens int64   `yaml:"response_tokens"`
	CostUSD        float64 `yaml:"cost_usd"`
	Prompt         string  `yaml:"prompt"`
	Input          any     `yaml:"-"`
	Response       string  `yaml:"-"` // raw JSON when it starts with { or [, else a JSON string; "" = no submission
	// ResponseJSON is response_json:, the exact submission; when set it
	// wins over Response (responseJSON).
	ResponseJSON json.RawMessage `yaml:"-"`
	Error        string          `yaml:"error"`
	Transcript   *Transcript     `yaml:"-"`
}

// EpisodeResponse is an episode's response: block (host result).
type EpisodeResponse struct {
	Data       map[string]any `yaml:"data"`
	Error      string         `yaml:"error"`
	InfraError string         `yaml:"infra_error"`
}

// NamesAlias reports whether an episode matches an agent alias
// (match.handler agent.<name>) rather than a host handler: only such a
// cassette answers agent calls as a transport in a flow fixture.
func (c *Cassette) NamesAlias() bool {
	return slices.ContainsFunc(c.Episodes, func(ep *Episode) bool {
		h, _ := ep.Match["handler"].(string)
		return strings.HasPrefix(h, "agent.")
	})
}

// For returns the transport that answers calls for alias from this cassette.
func (c *Cassette) For(alias string) Transport { return &cassetteAgent{c: c, alias: alias} }

// Remaining lists the ids of episodes never played (replay: any excluded),
// for strict coverage checks.
func (c *Cassette) Remaining() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for i, ep := range c.Episodes {
		if !c.played[i] && ep.Replay != "any" {
			out = append(out, ep.ID)
		}
	}
	return out
}

// Played reports whether episode i (in file order) has been played.
func (c *Cassette) Played(i int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.played[i]
}

// planned is an episode chosen by plan and not yet asked.
type planned struct {
	ep  *Episode
	idx int
}

type cassetteAgent struct {
	c     *Cassette
	alias string
}

// matchArgs is {"verb": req.verb} merged with req.with (with wins).
func (a *cassetteAgent) matchArgs(req *AskRequest) map[string]any {
	args := map[string]any{"verb": req.Verb}
	maps.Copy(args, req.With)
	return args
}

// plan picks the episode before the request is built, so Dispatch can use
// the cassette call id (and report episode_id/match_idx on agent.call.start).
func (a *cassetteAgent) plan(req *AskRequest) (string, string, int, bool) {
	c := a.c
	var perr error
	ep, idx := c.Pick(c.agentKey(a.alias, req, a.matchArgs(req), &perr))
	if ep == nil {
		return "", "", 0, false // Ask picks again and reports perr
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending[agentcall.CassetteID(c.AppID, ep.ID, idx)] = planned{ep, idx}
	return c.AppID, ep.ID, idx, true
}

func (a *cassetteAgent) Ask(ctx context.Context, req *AskRequest) (*AskResponse, error) {
	c := a.c
	args := a.matchArgs(req)
	c.mu.Lock()
	p, ok := c.pending[req.CallID]
	delete(c.pending, req.CallID)
	c.mu.Unlock()
	ep, idx := p.ep, p.idx
	if !ok {
		var perr error
		ep, idx = c.Pick(c.agentKey(a.alias, req, args, &perr))
		if ep == nil && perr != nil {
			return nil, Errorf(KindTransportError, "cassette agent %q: %v", a.alias, perr)
		}
	}
	if ep == nil {
		ids := make([]string, len(c.Episodes))
		for j, ep := range c.Episodes {
			ids[j] = ep.ID
		}
		return nil, Errorf(KindTransportError,
			"cassette agent %q: cassette miss: no episode matched handler=%q args=%s state_path=%q in %s; available episodes: [%s]",
			a.alias, a.alias, describeArgs(args), req.StatePath, c.Path, strings.Join(ids, " "))
	}
	if ep.Delay > 0 {
		t := time.NewTimer(ep.Delay)
		select {
		case <-ctx.Done():
			select {
			case <-t.C: // the delay passed as ctx ended: select picks either, the answer must win
			default:
				t.Stop()
				return nil, ContextError(a.alias, ctx.Err())
			}
		case <-t.C:
		}
	}
	if ep.Response.InfraError != "" {
		return nil, Errorf(KindTransportError, "cassette episode %q: %s", ep.ID, ep.Response.InfraError)
	}
	meta := map[string]any{
		"transport":  "cassette",
		"episode_id": ep.ID,
		"match_idx":  idx,
		"call_id":    agentcall.CassetteID(c.AppID, ep.ID, idx),
	}
	resp := &AskResponse{Meta: meta}
	if ag := ep.Agent; ag != nil {
		if ag.Error != "" {
			return nil, Errorf(KindPluginCrash, "cassette episode %q: %s", ep.ID, ag.Error)
		}
		if ag.Model != "" {
			meta["model"] = ag.Model
		}
		if ag.Agent != "" {
			meta["agent"] = ag.Agent
		}
		if ag.DurationMS > 0 {
			meta["duration_ms"] = ag.DurationMS
		}
		if ag.PromptTokens > 0 || ag.ResponseTokens > 0 {
			meta["usage"] = map[string]any{"input_tokens": ag.PromptTokens, "output_tokens": ag.ResponseTokens}
		}
		if ag.CostUSD > 0 {
			meta["cost_usd"] = ag.CostUSD
		}
		resp.Submission = episodeSubmission(ag.Response)
		if ag.ResponseJSON != nil {
			resp.Submission = ag.ResponseJSON
		}
		resp.Transcript = ag.Transcript
		if h, _ := ep.Match["handler"].(string); strings.HasPrefix(h, "host.") && ep.Response.Data != nil {
			meta["response_data"] = jsonvalue.Normalize(ep.Response.Data)
		}
		return resp, nil
	}
	if ep.Response.Error != "" {
		return nil, Errorf(KindPluginCrash, "cassette episode %q: %s", ep.ID, ep.Response.Error)
	}
	b, err := json.Marshal(jsonvalue.Normalize(ep.Response.Data))
	if err != nil {
		return nil, Errorf(KindTransportError, "cassette episode %q: response.data cannot be encoded as JSON: %v", ep.ID, err)
	}
	resp.Submission = b
	return resp, nil
}

// episodeSubmission: "" = none; { or [ = raw JSON; else a JSON string.
func episodeSubmission(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		return json.RawMessage(s)
	}
	q, _ := json.Marshal(s)
	return q
}

func describeArgs(args map[string]any) string {
	parts := make([]string, 0, len(args))
	for k, v := range args {
		b, err := json.Marshal(jsonvalue.Normalize(v))
		if err != nil {
			b = []byte(fmt.Sprint(v))
		}
		parts = append(parts, k+":"+string(b))
	}
	slices.Sort(parts)
	return "{" + strings.Join(parts, " ") + "}"
}

func (a *cassetteAgent) Close() error { return nil }
