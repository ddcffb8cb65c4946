package flowtest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"kitsoki/internal/jsoncost"
	"kitsoki/internal/safefile"
)

// Report is the --json report in upstream's shape (flow-format.md §6.5):
// Go field names, no tags, Results null when no flow ran.
type Report struct {
	Results []*FlowResult
	Passed  int
	Failed  int
}

// FlowResult is one flow document's result.
type FlowResult struct {
	File    string
	Passed  bool
	Turns   []*TurnResult
	Skipped bool
}

// TurnResult is one turn's result; TurnIndex -1 is the session
// pseudo-turn that carries session-level failures.
type TurnResult struct {
	TurnIndex int
	Passed    bool
	Failures  []string
	NewState  string
	View      string
	Events    []ReportEvent
}

// ReportEvent is an event as the report writes it, in upstream's field order.
type ReportEvent struct {
	Turn       int64           `json:"turn"`
	Seq        int64           `json:"seq"`
	TS         time.Time       `json:"ts"`
	Kind       string          `json:"kind"`
	StatePath  string          `json:"state_path,omitempty"`
	Payload    json.RawMessage `json:"payload,omitempty"`
	ParentTurn int64           `json:"parent_turn,omitempty"`
	CallID     string          `json:"call_id,omitempty"`
	EpisodeID  string          `json:"episode_id,omitempty"`
	MatchIdx   int             `json:"match_idx,omitempty"`

	// model is the payload not yet encoded (pending; NewReport encodes it).
	model   any
	pending bool
}

// NewReport builds the report of results, encoding their payloads in
// place (never beside another NewReport of the same results).
func NewReport(results []*Result) *Report {
	r := &Report{}
	for _, res := range results {
		if res.Flow == nil {
			continue
		}
		for _, tr := range res.Flow.Turns {
			for i := range tr.Events {
				tr.Events[i].encodePayload()
			}
		}
		r.Results = append(r.Results, res.Flow)
	}
	r.Passed, r.Failed = tallyFlows(r.Results)
	return r
}

// Tally counts the flows that passed and failed, as the report does
// (skipped ones and results without a flow in neither).
func Tally(results []*Result) (passed, failed int) {
	var flows []*FlowResult
	for _, res := range results {
		if res.Flow != nil {
			flows = append(flows, res.Flow)
		}
	}
	return tallyFlows(flows)
}

// tallyFlows counts the flows that passed and failed (skipped ones in neither).
func tallyFlows(flows []*FlowResult) (passed, failed int) {
	for _, f := range flows {
		switch {
		case f.Skipped:
		case f.Passed:
			passed++
		default:
			failed++
		}
	}
	return passed, failed
}

// MarshalReport is the report's bytes as upstream writes them: two-space
// indented JSON, HTML characters escaped, no trailing newline.
func MarshalReport(r *Report) ([]byte, error) {
	return json.MarshalIndent(r, "", "  ")
}

// ReadReport reads and parses a --json report (conformance goldens).
func ReadReport(path string) (*Report, error) { return readReport(path, jsoncost.Floor) }

// readReport is ReadReport with the decode estimate's floor given: the
// product's is jsoncost.Floor; tests lower it to refuse a small document.
func readReport(path string, floor int64) (*Report, error) {
	const maxReport = 1 << 30
	data, err := safefile.ReadFile(path, maxReport)
	if err != nil {
		return nil, err
	}
	return parseReport(path, data, floor)
}

// ParseReport parses a --json report (test merge's shards), refusing one
// that would take more than [jsoncost.Limit] once decoded.
func ParseReport(path string, data []byte) (*Report, error) {
	return parseReport(path, data, jsoncost.Floor)
}

// parseReport is ParseReport with jsoncost.Limit's floor given.
func parseReport(path string, data []byte, floor int64) (*Report, error) {
	limit := max(int64(len(data))*jsoncost.Ratio, floor)
	cost, err := jsoncost.Estimate(data, reflect.TypeFor[Report](), limit)
	if err != nil {
		return nil, fmt.Errorf("%s: not a kitsoki test --json report: %v", path, err)
	}
	if cost > limit {
		return nil, fmt.Errorf("%s: %d bytes that would take over %d MiB once read (a report of many empty results, turns or events); kitsoki test --json writes each with every field, so this is not its report; give the reports kitsoki test --shard i/n --json wrote, unedited", path, len(data), limit>>20)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a kitsoki test --json report: %v", path, err)
	}
	return &r, nil
}

// MergeReports concatenates shard reports (in the order given) and sums
// their counts.
func MergeReports(rs []*Report) *Report {
	out := &Report{}
	for _, r := range rs {
		out.Results = append(out.Results, r.Results...)
		out.Passed += r.Passed
		out.Failed += r.Failed
	}
	return out
}
