package trace

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A trace's calls may each name one large sidecar answer: the cassette
// written from it is bounded by what kitsoki reads back as a cassette,
// not by the references (300 calls naming one 20 MiB answer wrote 6 GB),
// and the export stops at the episode that passes the bound.
func TestToCassetteBoundedAgainstSidecarFanOut(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, promptsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	const size = 64 << 10
	if err := os.WriteFile(filepath.Join(dir, promptsDir, "big.json"), []byte(`{"submission":"`+strings.Repeat("x", size)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"kind":"session.header","schema_version":1,"written_at":"2026-01-01T00:00:00Z"}` + "\n")
	for i := range 1000 {
		b.WriteString(`{"turn":1,"seq":` + strconv.Itoa(2*i) + `,"ts":"2026-01-01T00:00:01Z","kind":"agent.call.start","call_id":"c` + strconv.Itoa(i) + `","payload":{"verb":"ask"}}` + "\n")
		b.WriteString(`{"turn":1,"seq":` + strconv.Itoa(2*i+1) + `,"ts":"2026-01-01T00:00:02Z","kind":"agent.call.complete","call_id":"c` + strconv.Itoa(i) + `","payload":{"verb":"ask","duration_ms":1,"response_file":"` + promptsDir + `/big.json"}}` + "\n")
	}
	p := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	const limit = 1 << 20
	res, err := ToCassette(f, p, &out, CassetteOptions{TracePath: p, MaxBytes: limit})
	if err == nil || !strings.Contains(err.Error(), "the cassette passes 1 MiB at its episode 17, the most kitsoki reads back as a cassette") {
		t.Fatalf("ToCassette = %+v, %v; want the bound named", res, err)
	}
	if out.Len() > limit {
		t.Errorf("wrote %d bytes past the %d-byte bound", out.Len(), limit)
	}
	if res.Episodes != 16 {
		t.Errorf("%d episodes before the bound, want 16", res.Episodes)
	}
}
