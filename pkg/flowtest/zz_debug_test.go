package flowtest

import (
	"testing"

	"kitsoki/pkg/engine"
)

func TestZZDebug(t *testing.T) {
	type ex struct {
		Method string `json:"method"`
		URL    string `json:"url"`
		Status int    `json:"status"`
	}
	p := map[string]any{"namespace": "x", "data": map[string]any{"widget_name": "s", "__http_exchanges": []map[string]any{{"method": "GET", "url": "u", "status": 200}}}}
	evs := toEvents([]engine.Event{{Kind: "harness.returned", Payload: p}}, false)
	want := EventExpect{Kind: "harness.returned", Effect: []KV{{Key: "data", Value: map[string]any{"widget_name": "s", "__http_exchanges": []any{map[string]any{"method": "GET", "url": "u", "status": int64(200)}}}}}}
	t.Logf("%#v", evs[0].payload)
	if !eventMatches(want, evs[0]) {
		t.Fatal("no match")
	}
}
