package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"

	"kitsoki/internal/testing/conformance"
	"kitsoki/pkg/flowtest"
)

// matchedKinds are the event kinds upstream's fixtures name in
// expect_events (flow-format.md §3.5 census), whose payload keys an
// `effect:` matches value for value.
var matchedKinds = map[string]bool{
	"machine.transition": true, "world.update": true,
	"harness.called": true, "harness.dispatched": true, "harness.returned": true,
}

// messageSeq is the counter an inbox message id ends in: upstream's
// counts in a file under its working directory, kept across runs.
var messageSeq = regexp.MustCompile(`#[0-9]+$`)

// payloadDiff describes the first event of a turn, of a kind an
// expect_events effect matches, with an upstream payload key ours lacks
// or holds another value under (job ids, artifact directories and inbox
// message counters aside), or is empty. Keys only ours writes match no
// effect upstream's fixtures write and are not compared. It compares only
// when the turns' event kinds line up one to one (EventDiffs reports the
// rest). The session id (sid, ours; a UUID, upstream's) is a placeholder.
func payloadDiff(ta, tb *flowtest.TurnResult, sid string) string {
	if len(ta.Events) != len(tb.Events) {
		return ""
	}
	for i, ea := range ta.Events {
		eb := tb.Events[i]
		if ea.Kind != eb.Kind {
			return ""
		}
		if !matchedKinds[ea.Kind] {
			continue
		}
		var pa, pb map[string]any
		if json.Unmarshal(ea.Payload, &pa) != nil || json.Unmarshal(eb.Payload, &pb) != nil {
			continue
		}
		keys := make([]string, 0, len(pa))
		for k := range pa {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			va, ok := pb[k]
			if !ok {
				return fmt.Sprintf("event %d %s: no %q, existing %s", i, ea.Kind, k, jsonText(pa[k]))
			}
			if !reflect.DeepEqual(noSession(payloadValue(pa[k]), ""), noSession(payloadValue(va), sid)) {
				return fmt.Sprintf("event %d %s: %q %s, existing %s", i, ea.Kind, k, jsonText(va), jsonText(pa[k]))
			}
		}
	}
	return ""
}

// payloadValue is a decoded payload value with its job ids, artifact
// directories, message counters and ticket comment times replaced.
func payloadValue(v any) any {
	v = conformance.NoIDsIn(v, ticketTimes...)
	if m, ok := v.(map[string]any); ok {
		if s, ok := m["message_id"].(string); ok {
			m["message_id"] = messageSeq.ReplaceAllString(s, "#<n>")
		}
	}
	return v
}

// ticketTimes are the created_at times a ticket comment
// host.local_files.ticket writes is stamped with: the run's clock, virtual
// here and the wall clock upstream (docs/compat/hosts.md). So is the time a
// blank author's comment reads back as its author (`<time> by`, conformance
// ticket-comment-author).
var ticketTimes = []conformance.Keyed{
	{Key: "created_at", As: "<time>", Text: rfc3339},
	{Key: "author", As: "<time> by", Text: timeAuthor},
}

// timeAuthor is the author a comment header with no author reads back as.
var timeAuthor = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2}) by$`)

var rfc3339 = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$`)

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
