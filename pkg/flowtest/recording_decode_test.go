package flowtest

import (
	"os"
	"path/filepath"
	"testing"
)

// A flow replay and the static harness read a recording through one
// decode: a refused value is named by line and key alike; only clarify:
// is theirs to read (a flow replay wants a boolean, the static harness
// ignores it, intents-conformance/static-recording).
func TestRecordingReadersShareOneDecode(t *testing.T) {
	dir := t.TempDir()
	read := func(src string) (flow, static string) {
		t.Helper()
		p := filepath.Join(dir, "recording.yaml")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := parseRecording("r.yaml", []byte(src)); err != nil {
			flow = err.Error()
		}
		if _, err := readStaticRecording(dir, p); err != nil {
			static = err.Error()
		}
		return flow, static
	}
	const head = "kind: recording\nentries:\n  - state: a\n    input: hi\n"
	flow, static := read(head + "    intent: [go]\n")
	if want := `recording "r.yaml": line 5, column 13: entries[0].intent: cannot unmarshal !!seq where a mapping is expected`; flow != want {
		t.Errorf("flow replay: %s\nwant %s", flow, want)
	}
	if want := `recording "` + filepath.Join(dir, "recording.yaml") + `":5:13: entries[0].intent: cannot unmarshal !!seq where a mapping is expected`; static != want {
		t.Errorf("static harness: %s\nwant %s", static, want)
	}
	flow, static = read(head + "    intent: {name: go}\n    clarify: maybe\n")
	if want := "recording \"r.yaml\": line 6: entries[0].clarify: cannot unmarshal !!str `maybe` where true or false is expected"; flow != want {
		t.Errorf("flow replay clarify: %s\nwant %s", flow, want)
	}
	if static != "" {
		t.Errorf("static harness clarify: %s", static)
	}
}
