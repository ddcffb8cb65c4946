package trace

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// onceTrace writes a trace of calls agent calls that all name the prompt
// sidecar p.txt and the response sidecar r.json, with those files, and
// returns the trace's path, the bytes up to the end of the first call
// and the rest.
func onceTrace(t *testing.T, calls int) (path string, first, rest []byte) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, promptsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	writeSidecars(t, dir, "FIRST")
	var b bytes.Buffer
	b.WriteString(`{"kind":"session.header","schema_version":1,"written_at":"2026-11-30T09:00:00Z","app_id":"x","story":"x/app.yaml","generator":"kitsoki test"}` + "\n")
	for i := 1; i <= calls; i++ {
		fmt.Fprintf(&b, `{"turn":1,"seq":%d,"ts":"2026-11-30T09:00:01Z","kind":"agent.call.start","state_path":"s","call_id":"%016x","payload":{"verb":"ask","agent":"agent.x","model":"m","prompt_file":"agent-prompts/p.txt"}}`+"\n", 2*i-2, i)
		fmt.Fprintf(&b, `{"turn":1,"seq":%d,"ts":"2026-11-30T09:00:02Z","kind":"agent.call.complete","state_path":"s","call_id":"%016x","payload":{"verb":"ask","agent":"agent.x","model":"m","duration_ms":1,"response_file":"agent-prompts/r.json"}}`+"\n", 2*i-1, i)
		if i == 1 {
			first = bytes.Clone(b.Bytes())
		}
	}
	path = filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, first, b.Bytes()[len(first):]
}

func writeSidecars(t *testing.T, dir, word string) {
	t.Helper()
	storytest.WriteTree(t, filepath.Join(dir, promptsDir), map[string]string{
		"p.txt":  "prompt " + word,
		"r.json": `{"submission":"answer ` + word + `","meta":{"pad":"x"}}`,
	})
}

// swapReader serves first, then calls swap before it serves rest: the
// trace reader asks for rest only once it has handled every event of
// first (it reads a line at a time, synchronously).
type swapReader struct {
	first, rest []byte
	swap        func()
	swapped     bool
}

func (r *swapReader) Read(p []byte) (int, error) {
	if len(r.first) > 0 {
		n := copy(p, r.first)
		r.first = r.first[n:]
		return n, nil
	}
	if !r.swapped {
		r.swapped = true
		r.swap()
	}
	if len(r.rest) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// Every call of a trace names one prompt and one response sidecar: trace
// export --content reads each once and gives every call what it read.
// Before, each call read both files again (2,000 calls naming two 16 MiB
// files read 64 GB in 533 s): here the files change after the first call,
// and the later calls exported the new text.
func TestExportContentReadsEachSidecarOnce(t *testing.T) {
	path, first, rest := onceTrace(t, 3)
	var out bytes.Buffer
	r := &swapReader{first: first, rest: rest, swap: func() { writeSidecars(t, filepath.Dir(path), "SECOND") }}
	if err := ExportOTLP(r, path, &out, OTLPOptions{Content: true, TracePath: path}); err != nil {
		t.Fatal(err)
	}
	if !r.swapped {
		t.Fatal("the files were never changed: the trace was read whole before the first call was exported")
	}
	spans := otlpSpans(t, out.Bytes())
	for i := 1; i <= 3; i++ {
		s := spans[fmt.Sprintf("%016x", i)]
		if !strings.Contains(s["gen_ai.input.messages"], "prompt FIRST") || !strings.Contains(s["gen_ai.output.messages"], "answer FIRST") || s["kitsoki.content_error"] != "" {
			t.Errorf("call %d: input %q, output %q, error %q; want the texts the first call read", i, s["gen_ai.input.messages"], s["gen_ai.output.messages"], s["kitsoki.content_error"])
		}
	}
	if strings.Contains(out.String(), "SECOND") {
		t.Error("a sidecar was read again after the first call")
	}
}

// The same for trace to-cassette: every episode gets the prompt and
// response its sidecars held when the first call read them.
func TestToCassetteReadsEachSidecarOnce(t *testing.T) {
	path, first, rest := onceTrace(t, 3)
	var out bytes.Buffer
	r := &swapReader{first: first, rest: rest, swap: func() { writeSidecars(t, filepath.Dir(path), "SECOND") }}
	res, err := ToCassette(r, path, &out, CassetteOptions{TracePath: path})
	if err != nil {
		t.Fatal(err)
	}
	if !r.swapped || res.Episodes != 3 {
		t.Fatalf("swapped %v, %d episodes", r.swapped, res.Episodes)
	}
	if n := strings.Count(out.String(), "prompt FIRST"); n != 3 || strings.Count(out.String(), "answer FIRST") != 3 || strings.Contains(out.String(), "SECOND") {
		t.Errorf("want 3 episodes with the first texts, got %d prompts:\n%s", n, out.String())
	}
}

// Past its budget a sidecar's value is not kept, and a call naming it
// again gets an error naming the call that read it, not a second read.
func TestSidecarOnceBudget(t *testing.T) {
	path, _, _ := onceTrace(t, 1)
	o := newSidecarOnce[string](path, 1<<20, 4)
	text := func(b []byte) (string, int64) { return string(b), int64(len(b)) }
	if s, err := o.get("agent-prompts/p.txt", "call-1", text); err != nil || s != "prompt FIRST" {
		t.Fatalf("first read: %q %v", s, err)
	}
	writeSidecars(t, filepath.Dir(path), "SECOND")
	_, err := o.get("agent-prompts/p.txt", "call-2", text)
	if err == nil || !strings.Contains(err.Error(), "read for call call-1 already") {
		t.Fatalf("second read: %v", err)
	}
	// an error is kept too: a missing file is looked for once
	if _, err := o.get("agent-prompts/none.txt", "call-3", text); err == nil {
		t.Fatal("missing sidecar read")
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), promptsDir, "none.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := o.get("agent-prompts/none.txt", "call-4", text); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("missing sidecar, named again: %v", err)
	}
}

// A file the reader cannot keep (past its budget) is read again when named
// again, but only until the bytes read again pass rereadMax: a trace
// naming a large blob on every line then gets an error naming the bounds,
// where each line read and decoded it again (to-cassette: 51 calls naming
// a 100 MiB blob in a member it never writes took 243 s).
func TestSidecarRereadsAreBounded(t *testing.T) {
	path, _, _ := onceTrace(t, 1)
	s := newSidecars(path, 1<<20)
	s.heldMax, s.rereadMax = 0, 2*int64(len("prompt FIRST")) // keep nothing; read it again twice at most
	for i := 1; i <= 3; i++ {
		if f, err := s.file("agent-prompts/p.txt"); err != nil || string(f.data) != "prompt FIRST" {
			t.Fatalf("read %d: %v", i, err)
		}
	}
	_, err := s.file("agent-prompts/p.txt")
	if err == nil || !strings.Contains(err.Error(), "read before and not kept") || !strings.Contains(err.Error(), "MiB read again in all") {
		t.Fatalf("fourth read: %v; want the bound named", err)
	}
	// a file kept is never read again, however often it is named
	k := newSidecars(path, 1<<20)
	k.rereadMax = 0
	for i := range 5 {
		if _, err := k.file("agent-prompts/r.json"); err != nil {
			t.Fatalf("kept file, read %d: %v", i, err)
		}
	}
}
