package flowtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"kitsoki/internal/jsoncost"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/termsafe"
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

// ParseReport parses a --json report (test merge's shards), refusing one
// that would take more than jsoncost.Over's limit once decoded.
func ParseReport(path string, data []byte) (*Report, error) {
	return parseReport(path, data, jsoncost.Floor)
}

// parseReport is ParseReport with jsoncost.Over's floor given.
func parseReport(path string, data []byte, floor int64) (*Report, error) {
	if limit, over := jsoncost.OverFor(data, reflect.TypeFor[Report](), floor); over {
		return nil, fmt.Errorf("%s: %d bytes that would take over %d MiB once read (a report of many empty results, turns or events); kitsoki test --json writes each with every field, so this is not its report; give the reports kitsoki test --shard i/n --json wrote, unedited", path, len(data), limit>>20)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a kitsoki test --json report: %s; %s", path, reportReason(data, err), reportFix)
	}
	return &r, nil
}

// reportFix ends a refusal of a report that does not decode.
const reportFix = "give the reports kitsoki test --json wrote, unedited"

// reportReason words err, json.Unmarshal's of data into a Report, in the
// report's own terms: a time's refusal (time.Time's own, which says
// neither where nor which member) names the event whose ts it is.
func reportReason(data []byte, err error) string {
	if _, ok := errors.AsType[*time.ParseError](err); ok || strings.HasPrefix(err.Error(), "Time.UnmarshalJSON") {
		if where, ts := badEventTime(data); where != "" {
			return fmt.Sprintf("%s: expected a time such as \"2006-01-02T15:04:05Z\" (RFC 3339), got %s", where, termsafe.Line(string(ts)))
		}
	}
	return jsonvalue.Reason(data, err)
}

// badEventTime is the place ("Results[i].Turns[j].Events[k].ts") and the
// JSON of the first event time in data that does not decode as a time.
func badEventTime(data []byte) (where string, ts []byte) {
	var skel struct {
		Results []struct {
			Turns []struct {
				Events []struct {
					TS json.RawMessage `json:"ts"`
				}
			}
		}
	}
	if json.Unmarshal(data, &skel) != nil {
		return "", nil
	}
	for i, f := range skel.Results {
		for j, tr := range f.Turns {
			for k, ev := range tr.Events {
				var tm time.Time
				if ev.TS != nil && tm.UnmarshalJSON(ev.TS) != nil {
					return fmt.Sprintf("Results[%d].Turns[%d].Events[%d].ts", i, j, k), ev.TS
				}
			}
		}
	}
	return "", nil
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
