package trace

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// readWay reads every event of data with the fast line decoder on or off.
func readWay(data []byte, fast bool) ([]Event, error) {
	rd := NewReader(bytes.NewReader(data), ReadOptions{Name: "t"})
	rd.fast = fast
	var evs []Event
	err := rd.Each(func(ev *Event) { evs = append(evs, *ev) })
	return evs, err
}

// readBothWays fails t when data reads differently with the fast decoder on
// and off: other events, other payload bytes or another error.
func readBothWays(t testing.TB, data []byte) {
	t.Helper()
	fast, ferr := readWay(data, true)
	slow, serr := readWay(data, false)
	if fmt.Sprint(ferr) != fmt.Sprint(serr) {
		t.Fatalf("errors differ:\nfast %v\nslow %v\ninput %q", ferr, serr, data)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("events differ:\nfast %+v\nslow %+v\ninput %q", fast, slow, data)
	}
}

// TestFastDecodeAgreesOnEveryTestTrace reads each trace of testdata (the
// corrupt ones, one per read-time rule, included) and a generated one both
// ways.
func TestFastDecodeAgreesOnEveryTestTrace(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	more, _ := filepath.Glob("testdata/*/*.jsonl")
	files = append(files, more...)
	if len(files) < 16 {
		t.Fatalf("only %d test traces", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) { readBothWays(t, data) })
	}
	readBothWays(t, synthBytes(t, 50))
}

// TestFastDecodeTakesTheWritersLines: every line the writer produces goes
// through the fast decoder (else the comparison above proves nothing).
func TestFastDecodeTakesTheWritersLines(t *testing.T) {
	lines := bytes.Split(bytes.TrimSuffix(synthBytes(t, 20), []byte("\n")), []byte("\n"))
	for _, l := range lines[1:] {
		var ev Event
		if _, ok := fastDecode(l, &ev); !ok {
			t.Fatalf("the fast decoder declines a writer's line: %s", l)
		}
	}
}

// TestFastDecodeSwitch: FastDecodeEnv's spellings turn the fast decoder off
// for readers made after it is set.
func TestFastDecodeSwitch(t *testing.T) {
	for v, on := range map[string]bool{"": true, "1": true, "0": false, "false": false, "OFF": false, "no": false} {
		t.Setenv(FastDecodeEnv, v)
		if rd := NewReader(io.MultiReader(), ReadOptions{}); rd.fast != on {
			t.Errorf("%s=%q: fast decoder on=%v, want %v", FastDecodeEnv, v, rd.fast, on)
		}
	}
}
