package trace

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/jsoncost"
	"kitsoki/internal/testing/allocs"
)

// TestBlobPayloadBoundsMemory: a line whose payload names a blob (so the
// reader decodes it to put the blob back or check it) and holds many empty
// {} values is refused before it is decoded, by verify and by a reader,
// allocating a small multiple of the line (decoding it took some 50 times
// its size: a 63 MB line made trace show peak at 3.1 GB RSS and trace
// verify at 2.3 GB). The estimate's floor is lowered from jsoncost.Floor to
// 1 MiB, so a tenth of the empties the product's floor needs passes it
// (TestBlobPayloadFloorIsTheProducts); fewer would leave the readers' fixed
// buffers most of the 8 times.
func TestBlobPayloadBoundsMemory(t *testing.T) {
	const floor = 1 << 20
	path, size := blobEmptiesTrace(t, 200_000)
	measure := func(name string, read func() error) {
		t.Helper()
		var err error
		spent := allocs.During(func() { err = read() })
		t.Logf("%s: %d bytes, allocated %d", name, size, spent)
		if ce, ok := errors.AsType[*CorruptError](err); !ok || ce.Rule != RuleBlob || ce.Line != 2 || !strings.Contains(err.Error(), "once decoded") {
			t.Errorf("%s: err = %v, want line 2 refused", name, err)
		}
		if spent > 8*uint64(size) {
			t.Errorf("%s: reading a %d-byte trace allocated %d bytes, over 8 times its size", name, size, spent)
		}
	}
	measure("verify", func() error { _, err := verifyFile(path, floor); return err })
	measure("read", func() error { return readFirst(path, ReadOptions{costFloor: floor}) })
}

// TestBlobPayloadFloorIsTheProducts: VerifyFile and OpenFile refuse a blob
// payload by jsoncost.Over's limit (12 times its size, at least 256 MiB): a line
// a 1 MiB floor refuses, as TestBlobPayloadBoundsMemory's, is read (its
// reference, a number, names no blob file).
func TestBlobPayloadFloorIsTheProducts(t *testing.T) {
	if jsoncost.Ratio != 12 || jsoncost.Floor != 256<<20 {
		t.Fatalf("jsoncost.Ratio %d, Floor %d; want 12 times and 256 MiB", jsoncost.Ratio, jsoncost.Floor)
	}
	path, _ := blobEmptiesTrace(t, 20_000)
	if _, err := verifyFile(path, 1<<20); err == nil || !strings.Contains(err.Error(), "once decoded") {
		t.Fatalf("verify at a 1 MiB floor: %v, want the line refused", err)
	}
	if _, err := VerifyFile(path); err != nil {
		t.Errorf("verify: %v, want the line read", err)
	}
	if err := readFirst(path, ReadOptions{}); err != nil {
		t.Errorf("read: %v, want the line read", err)
	}
}

// blobEmptiesTrace writes a trace whose second line's payload names a blob
// and holds n empty {}, and returns its path and size.
func blobEmptiesTrace(t *testing.T, n int) (string, int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	line := `{"turn":0,"seq":0,"ts":"2026-11-30T09:23:56.657Z","kind":"machine.state_entered","state_path":"idle","payload":{"$kitsoki_blob":1,"x":[` +
		strings.TrimSuffix(strings.Repeat("{},", n), ",") + "]}}\n"
	data := `{"kind":"session.header","schema_version":1,"written_at":"2026-11-30T09:23:56.656169307Z"}` + "\n" + line
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, len(data)
}

// readFirst opens the trace at path and reads its first event.
func readFirst(path string, opt ReadOptions) error {
	rd, err := OpenFile(path, opt)
	if err != nil {
		return err
	}
	defer rd.Close()
	_, err = rd.Next()
	return err
}

// TestToCassetteBoundsMemory: an agent call whose input holds many empty
// {} values is refused by trace to-cassette before it is decoded and
// written as YAML (before, a 63 MB line of them grew past this machine's
// 24 GB in two minutes and was killed). The estimate's floor is lowered
// from jsoncost.Floor to 1 MiB, so a hundredth of the empties the
// product's floor needs passes it (TestToCassetteFloorIsTheProducts).
func TestToCassetteBoundsMemory(t *testing.T) {
	data := emptiesInputTrace(maxInputValues + 1)
	var err error
	spent := allocs.During(func() {
		_, err = ToCassette(strings.NewReader(data), "run.jsonl", io.Discard, CassetteOptions{costFloor: 1 << 20})
	})
	t.Logf("%d bytes, allocated %d", len(data), spent)
	if err == nil || !strings.Contains(err.Error(), "call 0f1e2d3c4b5a6978: its input of ") {
		t.Errorf("err = %v, want the call's input refused", err)
	}
	if spent > 8*uint64(len(data)) {
		t.Errorf("to-cassette of a %d-byte trace allocated %d bytes, over 8 times its size", len(data), spent)
	}
}

// emptiesInputTrace is a trace of one agent call whose input is n empty {}.
func emptiesInputTrace(n int) string {
	return `{"kind":"session.header","schema_version":1,"written_at":"2026-11-30T09:23:56.656169307Z"}` + "\n" +
		`{"turn":1,"seq":0,"ts":"2026-11-30T09:00:03Z","kind":"agent.call.start","state_path":"s","call_id":"0f1e2d3c4b5a6978","payload":{"verb":"extract","agent":"local","model":"q","prompt":"x","input":[` +
		strings.TrimSuffix(strings.Repeat("{},", n), ",") + "]}}\n" +
		`{"turn":1,"seq":1,"ts":"2026-11-30T09:00:04Z","kind":"agent.call.complete","state_path":"s","call_id":"0f1e2d3c4b5a6978","payload":{"verb":"extract","agent":"local","response":{"a":1},"duration_ms":3}}` + "\n"
}

// TestToCassetteFloorIsTheProducts: to-cassette refuses an input by
// jsoncost.Over's limit (12 times its size, at least 256 MiB): the call
// TestToCassetteBoundsMemory has refused at a 1 MiB floor passes it and is
// refused for its count of values instead.
func TestToCassetteFloorIsTheProducts(t *testing.T) {
	if jsoncost.Ratio != 12 || jsoncost.Floor != 256<<20 {
		t.Fatalf("jsoncost.Ratio %d, Floor %d; want 12 times and 256 MiB", jsoncost.Ratio, jsoncost.Floor)
	}
	_, err := ToCassette(strings.NewReader(emptiesInputTrace(maxInputValues+1)), "run.jsonl", io.Discard, CassetteOptions{})
	if err == nil || !strings.Contains(err.Error(), "more than 100000 JSON values") {
		t.Fatalf("err = %v, want the input refused for its values, not its decoded size", err)
	}
}

// TestToCassetteBoundsInputValues: an input under the decoding bound but
// of more values than the YAML encoder can hold cheaply is refused (before,
// 1,700,000 empty {} in a 5 MB trace made to-cassette peak at 3.5 GB).
func TestToCassetteBoundsInputValues(t *testing.T) {
	data := `{"kind":"session.header","schema_version":1,"written_at":"2026-11-30T09:23:56.656169307Z"}` + "\n" +
		`{"turn":1,"seq":0,"ts":"2026-11-30T09:00:03Z","kind":"agent.call.start","state_path":"s","call_id":"0f1e2d3c4b5a6978","payload":{"verb":"extract","agent":"local","model":"q","prompt":"x","input":[` +
		strings.TrimSuffix(strings.Repeat("{},", maxInputValues), ",") + "]}}\n" +
		`{"turn":1,"seq":1,"ts":"2026-11-30T09:00:04Z","kind":"agent.call.complete","state_path":"s","call_id":"0f1e2d3c4b5a6978","payload":{"verb":"extract","agent":"local","response":{"a":1},"duration_ms":3}}` + "\n"
	var err error
	spent := allocs.During(func() { _, err = ToCassette(strings.NewReader(data), "run.jsonl", io.Discard, CassetteOptions{}) })
	t.Logf("%d bytes, allocated %d", len(data), spent)
	if err == nil || !strings.Contains(err.Error(), "more than 100000 JSON values") {
		t.Errorf("err = %v, want the call's input refused", err)
	}
	if spent > 8*uint64(len(data)) {
		t.Errorf("to-cassette of a %d-byte trace allocated %d bytes, over 8 times its size", len(data), spent)
	}
}
