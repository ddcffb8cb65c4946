package trace

import (
	"encoding/json"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// bigPayload is a world.update whose set holds a list of n ones and a
// long string, and which repeats the key "skipped" (the last one counts).
func bigPayload(n int) json.RawMessage {
	list := "[" + strings.Repeat("1, ", n) + "1]"
	return json.RawMessage(`{"skipped": 1, "set": {"big": ` + list + `, "s": "` + strings.Repeat("é", n) + `", "k": 2}, "skipped": "no"}`)
}

// A payload member larger than wholeBytes is printed from its JSON text
// (compacted, clipped) instead of being decoded into Go values: a 60 MB
// one-line trace took trace show 2.3 GB. The line is the one a whole
// decode gives (same keys, same values, a repeated key's last value).
func TestTimelineBoundsALargePayload(t *testing.T) {
	const n = 250_000
	ev := &Event{Kind: "world.update", Payload: bigPayload(n)}
	var ln Line
	spent := allocs.During(func() { ln, _ = (&Timeline{MaxValue: 20}).Feed(ev) })
	want := `set big=[1,1,1,1,1,1,1,1,1,1… k=2 s="éééééééééééééééééééé…"; (skipped: no)`
	if ln.Text != want {
		t.Errorf("line\n%s\nwant\n%s", ln.Text, want)
	}
	// decoded whole it allocated 12 times the payload (60 MB for 5 MB)
	if size := len(ev.Payload.(json.RawMessage)); spent > 5*uint64(size) {
		t.Errorf("Feed allocated %d bytes for a %d-byte payload, want at most 5 times it", spent, size)
	}
	small := &Event{Kind: "world.update", Payload: bigPayload(3)}
	if ln, _ := (&Timeline{MaxValue: 20}).Feed(small); ln.Text != `set big=[1,1,1,1] k=2 s="ééé"; (skipped: no)` {
		t.Errorf("small payload: %s", ln.Text)
	}
}

// BenchmarkTimelineLargePayload feeds one event whose payload holds a
// 3 MB list: its preview is read from the text.
func BenchmarkTimelineLargePayload(b *testing.B) {
	ev := &Event{Kind: "world.update", Payload: bigPayload(1_000_000)}
	b.ReportAllocs()
	for b.Loop() {
		(&Timeline{MaxValue: 100}).Feed(ev)
	}
}
