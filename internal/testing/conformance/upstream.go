package conformance

import (
	"encoding/json"
	"fmt"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/flowtest"
)

// upstreamReport is what [check] compares of an upstream.json: each flow
// document's file and verdicts, each turn's index, verdict, failures,
// resting state and view, and each event's turn, kind, state_path and
// payload. The rest of an event (its seq, its ts, ids of its call) is
// never compared, so it is not decoded: an event's time alone cost more
// than the others' fields together.
type upstreamReport struct {
	Results []*struct {
		File            string
		Passed, Skipped bool
		Turns           []*struct {
			TurnIndex int
			Passed    bool
			Failures  []string
			NewState  string
			View      string
			Events    []struct {
				Turn      int64           `json:"turn"`
				Kind      string          `json:"kind"`
				StatePath string          `json:"state_path"`
				Payload   json.RawMessage `json:"payload"`
			}
		}
	}
}

// readUpstream reads the report at path (a golden's upstream.json) as
// [ReadReport] does, but for the fields [check] does not compare, which
// are left zero: each event's seq, ts, parent turn, call, episode and match
// index, and the report's counts.
func readUpstream(path string) (*flowtest.Report, error) {
	data, err := safefile.ReadFile(path, 1<<30)
	if err != nil {
		return nil, err
	}
	var u upstreamReport
	if err := json.Unmarshal(data, &u); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r := &flowtest.Report{}
	if u.Results == nil {
		return r, nil
	}
	r.Results = make([]*flowtest.FlowResult, len(u.Results))
	for i, f := range u.Results {
		if f == nil {
			continue
		}
		fr := &flowtest.FlowResult{File: f.File, Passed: f.Passed, Skipped: f.Skipped}
		if f.Turns != nil {
			fr.Turns = make([]*flowtest.TurnResult, len(f.Turns))
		}
		for j, t := range f.Turns {
			if t == nil {
				continue
			}
			tr := &flowtest.TurnResult{TurnIndex: t.TurnIndex, Passed: t.Passed, Failures: t.Failures, NewState: t.NewState, View: t.View}
			if t.Events != nil {
				tr.Events = make([]flowtest.ReportEvent, len(t.Events))
			}
			for k, e := range t.Events {
				tr.Events[k] = flowtest.ReportEvent{Turn: e.Turn, Kind: e.Kind, StatePath: e.StatePath, Payload: e.Payload}
			}
			fr.Turns[j] = tr
		}
		r.Results[i] = fr
	}
	return r, nil
}
