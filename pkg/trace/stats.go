package trace

import (
	"io"
	"math"
	"slices"
	"strings"

	"kitsoki/internal/quantile"
	"kitsoki/pkg/diag"
)

// Stats are totals across one or more traces.
type Stats struct {
	Files         int                    `json:"files"`
	Bytes         int64                  `json:"bytes"`
	Events        int                    `json:"events"`
	Turns         int                    `json:"turns"` // distinct turns, summed over files
	EventsByKind  map[string]int         `json:"events_by_kind"`
	Calls         int                    `json:"calls"`
	CallErrors    int                    `json:"call_errors"`
	OpenCalls     int                    `json:"open_calls"` // started, no result
	Fallbacks     int                    `json:"fallbacks"`
	ErrorsByKind  map[string]int         `json:"errors_by_kind"`
	ByAgent       map[string]*AgentStats `json:"by_agent"`
	LatencyP50MS  int64                  `json:"latency_p50_ms"`
	LatencyP95MS  int64                  `json:"latency_p95_ms"`
	InputTokens   int64                  `json:"input_tokens"`
	OutputTokens  int64                  `json:"output_tokens"`
	CostUSD       float64                `json:"cost_usd"`
	HostCalls     int                    `json:"host_calls"`
	HostErrors    int                    `json:"host_errors"`
	HostByHandler map[string]int         `json:"host_calls_by_handler"`
	latencies     []int64
	turn          turnCounter // of the trace being added
	calls         CallTracker
	hosts         hostTracker
	names         int // distinct names kept in the tables (statName)
}

// maxStatsNames bounds the distinct names (event kinds, agents, error
// kinds, handlers) one Stats keeps across its tables, each clipped to
// maxStatsNameBytes: a name past it is counted under otherNames, so a
// trace naming a new kind on every line costs what a real one does.
const maxStatsNames = 4096

// maxStatsNameBytes is the longest name a stats table keeps whole.
const maxStatsNameBytes = 256

// otherNames is the row that counts what the names past maxStatsNames do.
const otherNames = "(other names)"

// AgentStats are the per-agent totals.
type AgentStats struct {
	Calls        int            `json:"calls"`
	Errors       int            `json:"errors"`
	ErrorsByKind map[string]int `json:"errors_by_kind,omitempty"`
	LatencyP50MS int64          `json:"latency_p50_ms"`
	LatencyP95MS int64          `json:"latency_p95_ms"`
	InputTokens  int64          `json:"input_tokens"`
	OutputTokens int64          `json:"output_tokens"`
	CostUSD      float64        `json:"cost_usd"`
	latencies    []int64
}

// NewStats returns empty totals.
func NewStats() *Stats {
	return &Stats{EventsByKind: map[string]int{}, ErrorsByKind: map[string]int{}, ByAgent: map[string]*AgentStats{}, HostByHandler: map[string]int{}}
}

// callPayload reports the kinds whose payload the call summaries (Stats,
// ExportOTLP) read: agent.call.* and harness.*.
func callPayload(kind string) bool {
	return IsAgentCallKind(kind) || strings.HasPrefix(kind, "harness.")
}

// AddTrace streams one trace into the totals. On a corrupt trace the events
// before the corruption are counted and the error is returned.
func (s *Stats) AddTrace(r io.Reader, name string) error {
	rd := NewReader(r, ReadOptions{Name: name, KeepPayload: callPayload})
	s.Files++
	s.turn = turnCounter{}
	s.calls = CallTracker{}
	s.hosts = hostTracker{}
	defer func() {
		s.Bytes += rd.BytesRead()
		s.OpenCalls += s.calls.OpenCount()
		for _, hc := range s.hosts.pending() {
			s.countHost(hc)
		}
	}()
	if _, err := rd.Header(); err != nil {
		return err
	}
	return rd.Each(s.Add)
}

// Add counts one event.
func (s *Stats) Add(ev *Event) {
	s.Events++
	s.EventsByKind[statName(s, s.EventsByKind, ev.Kind)]++
	if s.turn.see(ev.Turn) {
		s.Turns++
	}
	if hc := s.hosts.observe(ev); hc != nil {
		s.countHost(hc)
	}
	c := s.calls.Observe(ev)
	if c == nil {
		return
	}
	s.Calls++
	name := statName(s, s.ByAgent, c.AgentName())
	a := s.ByAgent[name]
	if a == nil {
		a = &AgentStats{}
		s.ByAgent[name] = a
	}
	a.Calls++
	a.latencies = append(a.latencies, c.DurationMS)
	s.latencies = append(s.latencies, c.DurationMS)
	a.InputTokens += c.InputTokens
	a.OutputTokens += c.OutputTokens
	a.CostUSD += c.CostUSD
	s.InputTokens += c.InputTokens
	s.OutputTokens += c.OutputTokens
	s.CostUSD += c.CostUSD
	if c.Substitution != nil {
		s.Fallbacks++
	}
	if c.Outcome == OutcomeError {
		s.CallErrors++
		a.Errors++
		s.ErrorsByKind[statName(s, s.ErrorsByKind, c.ErrorKind)]++
		if a.ErrorsByKind == nil {
			a.ErrorsByKind = map[string]int{}
		}
		a.ErrorsByKind[statName(s, a.ErrorsByKind, c.ErrorKind)]++
	}
}

func (s *Stats) countHost(hc *HostCall) {
	s.HostCalls++
	s.HostByHandler[statName(s, s.HostByHandler, hc.Namespace)]++
	if hc.Error != "" {
		s.HostErrors++
	}
}

// statName is the key name counts under in the table m: itself (clipped
// to maxStatsNameBytes, a copy, so no event's line is kept), or
// otherNames once s keeps maxStatsNames names.
func statName[V any](s *Stats, m map[string]V, name string) string {
	if _, ok := m[name]; ok {
		return name
	}
	if len(name) > maxStatsNameBytes {
		name = diag.Clip(name, maxStatsNameBytes)
		if _, ok := m[name]; ok {
			return name
		}
	}
	if s.names >= maxStatsNames {
		return otherNames
	}
	s.names++
	return strings.Clone(name)
}

// Finish computes the percentiles; call it once after the last AddTrace.
func (s *Stats) Finish() {
	s.LatencyP50MS, s.LatencyP95MS = percentiles(s.latencies)
	s.CostUSD = roundCost(s.CostUSD)
	for _, a := range s.ByAgent {
		a.LatencyP50MS, a.LatencyP95MS = percentiles(a.latencies)
		a.CostUSD = roundCost(a.CostUSD)
	}
}

// roundCost drops float noise below a millionth of a cent.
func roundCost(v float64) float64 { return math.Round(v*1e8) / 1e8 }

// percentiles returns the nearest-rank p50 and p95.
func percentiles(v []int64) (p50, p95 int64) {
	if len(v) == 0 {
		return 0, 0
	}
	s := slices.Sorted(slices.Values(v))
	return quantile.NearestRank(s, 0.50), quantile.NearestRank(s, 0.95)
}
