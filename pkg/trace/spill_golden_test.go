package trace

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/golden"
)

// spillGolden is what the writer wrote for spillEvents, as the code that
// decoded every spilled payload to a map and marshalled it again wrote it:
// the trace bytes, then each blob file's name, size and sha256. Moving
// values to blobs without that copy must keep every byte. -update
// rewrites it.
const spillGolden = "testdata/spill/golden.txt"

// spillText is n bytes of text made from word, so blobs differ by word.
func spillText(word string, n int) string {
	return strings.Repeat(word, n/len(word)+1)[:n]
}

// spillEvents covers the writer's blob paths at a 1 MiB line limit:
// strings over blobThreshold (plain, and with characters JSON escapes),
// a payload given as raw JSON (spaces, keys out of order, a repeated key,
// a lone surrogate, U+2028, numbers spelt oddly), containers moved while
// the line is still too long (the inner one preferred when it holds most
// of it), an object that only looks like a blob reference, a value shared
// by several events, an agent call whose response and transcript leave
// the event, and events that cannot fit (refused).
func spillEvents() []Event {
	big := spillText("big answer ", blobThreshold*2+7)
	esc := spillText("a\"\\<b>&c\u2028é\t", blobThreshold+300)
	rows := func(word string, n, size int) []any {
		var out []any
		for i := range n {
			out = append(out, map[string]any{"i": i, "text": spillText(fmt.Sprintf("%s-%d ", word, i), size)})
		}
		return out
	}
	raw := json.RawMessage("{ \"z\": 1, \"a\" : [1, -0, 1E400, 2.50e+3, true, false, null],\n\"dup\": \"first\", \"dup\": \"second\",\n" +
		"\"sur\": \"\\ud800x\\u00e9\\u003c\", \"ls\": \"a\u2028b<>&\", \"big\": \"" + spillText("raw blob ", blobThreshold+1) + "\"," +
		"\"esc\": \"" + strings.Repeat(`x\"\/\u0041`, blobThreshold/8) + "\" }")
	manySmall := map[string]any{}
	for i := range 3000 {
		manySmall[fmt.Sprintf("k%05d", i)] = spillText("small ", 500)
	}
	return []Event{
		{Turn: 1, Kind: "agent.call.start", CallID: "c1", Payload: map[string]any{"verb": "ask", "prompt": spillText("prompt ", 2000)}},
		{Turn: 1, Kind: "agent.call.complete", CallID: "c1", Payload: map[string]any{"verb": "ask", "response": map[string]any{"submission": map[string]any{"text": big}},
			"transcript": map[string]any{"format": "x", "events": []any{map[string]any{"n": 1}, map[string]any{"big": big}}, "timings": []int{3, 4}}}},
		{Turn: 1, Kind: "world.update", StatePath: "ask", Payload: map[string]any{"set": map[string]any{"out": map[string]any{"text": big}}}},
		{Turn: 1, Kind: "harness.returned", Payload: map[string]any{"z": "<tag>&", "a": json.Number("1.50e+3"), "esc": esc, "list": []any{big, esc, "small"}}},
		{Turn: 1, Kind: "harness.returned", Payload: raw},
		{Turn: 1, Kind: "machine.say", Payload: big},
		{Turn: 2, Kind: "world.update", Payload: map[string]any{"rows": rows("row", 5, 70_000), "note": "five rows, then an object that holds most of it",
			"outer": map[string]any{"inner": rows("inner", 9, 80_000), "tag": spillText("tag ", 50_000)},
			"fake":  map[string]any{blobKey: "agent-prompts/none.txt", "bytes": 1}}},
		{Turn: 2, Kind: "world.update", Payload: map[string]any{"many": func() []any {
			var out []any
			for i := range 10 {
				out = append(out, spillText(fmt.Sprintf("mid %d ", i), blobThreshold+1+i))
			}
			return out
		}()}},
		{Turn: 2, Kind: "world.update", Payload: map[string]any{"set": manySmall}},
		{Turn: 3, Kind: "world.update", Payload: manySmall},
		{Turn: 3, Kind: "world.update", Payload: json.RawMessage(`{"rows": [` + strings.Repeat(`{"t": "raw line<&>", "n": 1.0}, `, 40_000) + `{"\u0074": "\ud834\udd1e"}], "x": " "}`)},
		{Turn: 3, Kind: "turn.end", Payload: map[string]any{"deep": map[string]any{"a": map[string]any{"b": []any{rows("deep", 20, 60_000)}}}}},
	}
}

func writeSpillTrace(t testing.TB, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "run.jsonl")
	base := time.Date(2026, 12, 4, 14, 0, 0, 0, time.UTC)
	w, err := CreateWith(p, Header{WrittenAt: base, AppID: "spill", Generator: "kitsoki test"}, Options{MaxLineBytes: 1 << 20, Sync: SyncNever})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var got strings.Builder
	for i, ev := range spillEvents() {
		ev.TS = base.Add(time.Duration(i) * time.Second)
		if err := w.Append(ev); err != nil {
			// the line-limit refusal, without the temp path
			_, after, _ := strings.Cut(err.Error(), ": ")
			_, after, _ = strings.Cut(after, p+`": `)
			fmt.Fprintf(&got, "event %d refused: %s\n", i, after)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return got.String()
}

// spillManifest is the trace (a long line by its start and hash), the
// refusals, then each file beside it.
func spillManifest(t testing.TB, dir, refusals string) string {
	t.Helper()
	trace, err := os.ReadFile(filepath.Join(dir, "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, sub := range []string{promptsDir, transcriptsDir} {
		names, _ := filepath.Glob(filepath.Join(dir, sub, "*"))
		files = append(files, names...)
	}
	slices.Sort(files)
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(trace), "\n") {
		if len(line) > 1500 { // long lines by their start and hash
			line = fmt.Sprintf("%s... (%d bytes, sha256 %x)\n", line[:1000], len(line), sha256.Sum256([]byte(line)))
		}
		b.WriteString(line)
	}
	b.WriteString(refusals)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, f)
		fmt.Fprintf(&b, "file %s %d %x\n", filepath.ToSlash(rel), len(data), sha256.Sum256(data))
	}
	return b.String()
}

func TestSpillGolden(t *testing.T) {
	dir := t.TempDir()
	refusals := writeSpillTrace(t, dir)
	golden.CheckString(t, spillGolden, spillManifest(t, dir, refusals))
}
