package agent

import (
	"encoding/json"
	"regexp"
	"slices"
	"sync"
	"time"
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
	badDelay *string // a delay: written that is no duration (EpisodeDelay)
}

// EpisodeAgent is what is read of an episode's agent: block (its turn,
// system_prompt and advisory call_id are not used).
// The keys read as they are carry their yaml tags; the others are read
// through rawAgent.
type EpisodeAgent struct {
	Verb           string  `yaml:"verb"`
	Agent          string  `yaml:"agent"`
	Model          string  `yaml:"model"`
	DurationMS     int64   `yaml:"-"`
	PromptTokens   int64   `yaml:"-"`
	ResponseTokens int64   `yaml:"-"`
	CostUSD        float64 `yaml:"-"`
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

// Append adds an episode after the others, unplayed (a recorded call,
// record_mode new_episodes); safe beside Pick.
func (c *Cassette) Append(ep *Episode) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Episodes = append(c.Episodes, ep)
	c.played = append(c.played, false)
}

// IDs lists the episodes' ids in order (a miss names them all); safe
// beside Append.
func (c *Cassette) IDs() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	ids := make([]string, len(c.Episodes))
	for i, ep := range c.Episodes {
		ids[i] = ep.ID
	}
	return ids
}

// Played reports whether episode i (in file order) has been played.
func (c *Cassette) Played(i int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.played[i]
}

// Fresh is c as parsed, with nothing played: the same episodes (a replay
// never changes them) and replay state of its own, for another run of the
// same file without parsing it again.
func (c *Cassette) Fresh() *Cassette {
	return &Cassette{Path: c.Path, AppID: c.AppID, AppVersion: c.AppVersion, RecordMode: c.RecordMode, PhaseFrom: c.PhaseFrom,
		phaseInsts: c.phaseInsts, MatchOn: c.MatchOn, Episodes: slices.Clip(c.Episodes), // a recording's Append copies
		played: make([]bool, len(c.Episodes)), counts: map[string]int{}, pending: map[string]planned{}}
}
