package agent

import (
	"bytes"
	"io"
	"testing"
)

// FuzzCostlyEvents: the event-stream check hands on exactly the bytes it
// read, whatever they are (events, lone lines, "\r\n", an event over its
// size bound, a stream cut short), when no event is refused; and an event
// it refuses ends the stream there, with nothing of it handed on.
func FuzzCostlyEvents(f *testing.F) {
	for _, seed := range []string{
		"event: message\ndata: {\"a\":1}\n\n", "data: [1]\r\n\r\ndata: 2\n\n", "data: a\ndata: b\n\n: note\n\n",
		"data: [[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[]]\n\n", "no end", "\n\n\n", "data:" + string(bytes.Repeat([]byte("x"), 200)) + "\n\n",
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, stream []byte, strict bool) {
		floor := int64(1 << 40)
		if strict {
			floor = 1
		}
		c := newCostlyEvents(io.NopCloser(bytes.NewReader(stream)), 64, floor, &httpFailure{})
		got, err := io.ReadAll(c)
		if !strict {
			if err != nil || !bytes.Equal(got, stream) {
				t.Fatalf("read %q, %v; want %q whole", got, err, stream)
			}
			return
		}
		if !bytes.HasPrefix(stream, got) {
			t.Fatalf("read %q, not a prefix of %q", got, stream)
		}
		if err == nil && !bytes.Equal(got, stream) {
			t.Fatalf("read %q of %q without an error", got, stream)
		}
	})
}
