package view

import (
	"testing"

	"kitsoki/internal/testing/storyload"
)

// BenchmarkRender renders an extends view (cloak: layout, include, blocks)
// and a typed view (weather-report: kv, template loop, choice) per op.
func BenchmarkRender(b *testing.B) {
	cloak := storyload.LoadNoEnv(b, corpus("cloak"))
	weather := storyload.LoadNoEnv(b, corpus("weather-report"))
	rc, rw := newRenderer(cloak), newRenderer(weather)
	wc := with(defaults(cloak), "wearing_cloak", false)
	ww := with(defaults(weather), "mode", "forecast", "place", "Tokyo, Japan",
		"rows", []any{map[string]any{"date": "d", "desc": "x", "hi": 1, "lo": 0, "precip": 0, "wind": 3}})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := rc.RenderView("ended", wc, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := rw.RenderView("report", ww, nil); err != nil {
			b.Fatal(err)
		}
	}
}
