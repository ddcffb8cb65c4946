package trace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

const traceCanary = "SECRET-CANARY-b5e830"

// fanOut writes a trace of n machine.say events whose text is the blob
// agent-prompts/<name> (size bytes, as the writer records it) and returns
// the trace's path.
func fanOut(t testing.TB, dir, name string, size, n int, canonical bool) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"kind":"session.header","schema_version":1,"written_at":"2026-01-01T00:00:00Z"}` + "\n")
	for i := range n {
		ref := fmt.Sprintf(`{"$kitsoki_blob":"agent-prompts/%s","bytes":%d}`, name, size)
		if !canonical {
			ref = fmt.Sprintf(`{ "bytes": %d, "$kitsoki_blob": "agent-prompts/%s" }`, size, name)
		}
		fmt.Fprintf(&b, `{"turn":1,"seq":%d,"ts":"2026-01-01T00:00:01Z","kind":"machine.say","payload":{"text":%s}}`+"\n", i, ref)
	}
	p := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readAllEvents(t *testing.T, p string, o ReadOptions, after func(i int)) ([]Event, error) {
	t.Helper()
	rd, err := OpenFile(p, o)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if _, err := rd.Header(); err != nil {
		t.Fatal(err)
	}
	var evs []Event
	for i := 0; ; i++ {
		ev, err := rd.Next()
		if err == io.EOF {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
		if after != nil {
			after(i)
		}
	}
}

// A blob reference reaching, through a symlink, a file outside the trace's
// agent-prompts/ folder (or a folder that is itself a symlink) is refused:
// the error names the reference, never the target, and nothing of it is
// read.
func TestBlobSymlinkRefused(t *testing.T) {
	for _, tc := range []struct {
		name      string
		canonical bool
		dirLink   bool
	}{{"file link", true, false}, {"file link, other spelling", false, false}, {"folder link", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			secretDir := filepath.Join(base, "home", ".ssh")
			if err := os.MkdirAll(secretDir, 0o755); err != nil {
				t.Fatal(err)
			}
			secret := filepath.Join(secretDir, "blob-x.txt")
			if err := os.WriteFile(secret, []byte(traceCanary), 0o600); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(base, "t")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.dirLink {
				if err := os.Symlink(secretDir, filepath.Join(dir, promptsDir)); err != nil {
					t.Fatal(err)
				}
			} else {
				if err := os.Mkdir(filepath.Join(dir, promptsDir), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(secret, filepath.Join(dir, promptsDir, "blob-x.txt")); err != nil {
					t.Fatal(err)
				}
			}
			p := fanOut(t, dir, "blob-x.txt", len(traceCanary), 1, tc.canonical)
			for _, o := range []ReadOptions{{}, {BlobPreview: 40}, {CheckBlobs: true, SkipPayload: true}} {
				evs, err := readAllEvents(t, p, o, nil)
				if err == nil || !errors.Is(err, errSidecarLink) || !strings.Contains(err.Error(), "agent-prompts/blob-x.txt") {
					t.Fatalf("%+v: %v (%d events)", o, err, len(evs))
				}
				if strings.Contains(err.Error(), traceCanary) || strings.Contains(err.Error(), ".ssh") {
					t.Fatalf("the error shows the target: %v", err)
				}
			}
			if _, err := ReadSidecar(p, "agent-prompts/blob-x.txt", 1<<20); !errors.Is(err, errSidecarLink) {
				t.Fatalf("ReadSidecar: %v", err)
			}
			for _, ref := range []string{"agent-prompts/../../home/.ssh/blob-x.txt", "/etc/passwd", "../x"} {
				if _, err := ReadSidecar(p, ref, 1<<20); err == nil || !strings.Contains(err.Error(), "is not under agent-prompts/") {
					t.Fatalf("%s: %v", ref, err)
				}
			}
		})
	}
}

// 30 references to one blob read it once: once the first event is read
// the blob can be gone and every later event still has its value (whole,
// or as a preview). The preview reads only the blob's first bytes. The
// reader keeps each file once, whatever the count of references to it.
func TestBlobReadOncePerReader(t *testing.T) {
	value := strings.Repeat("0123456789", 30_000) // 300 KB, as the writer would blob it
	for _, o := range []ReadOptions{{}, {BlobPreview: 20}} {
		for _, canonical := range []bool{true, false} {
			dir := t.TempDir()
			blob := filepath.Join(dir, promptsDir, "blob-v.txt")
			storytest.WriteFile(t, blob, value)
			p := fanOut(t, dir, "blob-v.txt", len(value), 30, canonical)
			want := `{"text":"` + value + `"}`
			if o.BlobPreview > 0 {
				want = `{"text":"` + value[:(o.BlobPreview+1)*4+1] + `"}`
			}
			evs, err := readAllEvents(t, p, o, func(i int) {
				if i == 0 {
					os.Remove(blob)
				}
			})
			if err != nil || len(evs) != 30 {
				t.Fatalf("%+v canonical=%v: %d events, %v", o, canonical, len(evs), err)
			}
			for _, ev := range evs {
				if got, _ := ev.Payload.(json.RawMessage); string(got) != want {
					t.Fatalf("%+v: payload %.80s…", o, ev.Payload)
				}
			}
		}
	}
}

// A blob whose size is not the one recorded is reported, in both paths.
func TestBlobSizeChecked(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{promptsDir + "/blob-v.txt": "short"})
	for _, canonical := range []bool{true, false} {
		p := fanOut(t, dir, "blob-v.txt", 99, 1, canonical)
		for _, o := range []ReadOptions{{}, {BlobPreview: 10}} {
			if _, err := readAllEvents(t, p, o, nil); err == nil || !strings.Contains(err.Error(), "holds 5 bytes, the trace says 99") {
				t.Fatalf("%+v canonical=%v: %v", o, canonical, err)
			}
		}
	}
}
