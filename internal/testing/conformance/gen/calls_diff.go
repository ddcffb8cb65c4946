package main

import (
	"encoding/json"
	"fmt"
	"reflect"

	"kitsoki/internal/testing/conformance"
	"kitsoki/pkg/flowtest"
)

// callsDiff describes the first host call of a turn whose rendered
// arguments differ (harness.dispatched, in order: what an agent was
// asked — its prompt, args and call id), or is empty. A turn where either
// engine dispatched nothing is not compared (ours may write
// harness.called where upstream writes harness.dispatched).
func callsDiff(ta, tb *flowtest.TurnResult) string {
	a, b := conformance.Dispatched(ta.Events), conformance.Dispatched(tb.Events)
	if len(a) == 0 || len(b) == 0 {
		return ""
	}
	if len(a) != len(b) {
		return fmt.Sprintf("%d calls dispatched, existing %d", len(b), len(a))
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) {
			ja, _ := json.Marshal(a[i])
			jb, _ := json.Marshal(b[i])
			return fmt.Sprintf("call %d %s, existing %s", i, jb, ja)
		}
	}
	return ""
}
