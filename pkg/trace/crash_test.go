package trace

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const crashChildEnv = "KITSOKI_TRACE_CRASH_CHILD"

// TestMain turns the test binary into the crash-test writer when
// KITSOKI_TRACE_CRASH_CHILD names a trace path: it appends events of varied
// sizes (some with agent prompts large enough for a sidecar) until killed.
func TestMain(m *testing.M) {
	if p := os.Getenv(crashChildEnv); p != "" {
		os.Exit(crashChild(p))
	}
	os.Exit(m.Run())
}

func crashChild(p string) int {
	w, err := CreateWith(p, Header{AppID: "crash"}, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	for i := 0; ; i++ {
		turn := i / 7
		ev := Event{Turn: turn, Kind: "world.update", StatePath: "s", Payload: map[string]any{"set": map[string]any{"i": i, "pad": strings.Repeat("x", (i*131)%5000)}}}
		if i%5 == 0 {
			ev = Event{Turn: turn, Kind: "agent.call.start", CallID: fmt.Sprintf("c%d", i), Payload: map[string]any{"verb": "ask", "prompt": strings.Repeat("p", (i*977)%3000)}}
		}
		if err := w.Append(ev); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 4
		}
	}
}

// TestCrashSafety SIGKILLs a real writer process at random points. Each
// resulting file, and every prefix of it, is either a valid trace or is
// rejected for a torn last line with the documented message; nothing else.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns writer processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	for range 4 {
		p := filepath.Join(t.TempDir(), "crash.jsonl")
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+p)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Let it write a random amount, then kill it without warning.
		target := int64(2000 + rng.IntN(60_000))
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if st, err := os.Stat(p); err == nil && st.Size() >= target {
				break
			}
			time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		if stderr.Len() > 0 {
			t.Fatalf("writer failed: %s", stderr.String())
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) < 100 {
			t.Fatalf("writer produced only %d bytes", len(data))
		}
		checkCrashFile(t, p)
		// The bytes around every line boundary of the last 30 lines (and of
		// the header), and random cuts.
		cuts := map[int]bool{0: true, len(data): true}
		tail := len(data) - 1
		for k := 0; k < 30 && tail > 0; k++ {
			tail = bytes.LastIndexByte(data[:tail], '\n')
		}
		for i, c := range data {
			if c == '\n' && (i >= tail || cuts[0] && i < 200) {
				cuts[i] = true
				cuts[i+1] = true
				if i+2 <= len(data) {
					cuts[i+2] = true
				}
			}
		}
		for range 60 {
			cuts[rng.IntN(len(data)+1)] = true
		}
		for n := range cuts {
			checkPrefix(t, data[:n])
		}
		// A new writer can take over the path once the old one is gone.
		w, err := CreateWith(p, Header{}, Options{})
		if err != nil {
			t.Fatalf("lock not released by the killed writer: %v", err)
		}
		w.Close()
	}
}

func checkCrashFile(t *testing.T, p string) {
	t.Helper()
	_, err := VerifyFile(p)
	if err == nil {
		return
	}
	if !isCorrupt(err, RuleTrailingNewline) {
		t.Fatalf("killed writer left a trace rejected for another reason: %v", err)
	}
}

func checkPrefix(t *testing.T, prefix []byte) {
	t.Helper()
	_, err := Verify(bytes.NewReader(prefix), "prefix")
	if err == nil {
		return
	}
	ce, ok := errors.AsType[*CorruptError](err)
	switch {
	case ok && ce.Rule == RuleTrailingNewline:
	case ok && ce.Rule == RuleHeaderMissing && len(prefix) == 0:
	default:
		t.Fatalf("prefix of %d bytes rejected for another reason: %v", len(prefix), err)
	}
}
