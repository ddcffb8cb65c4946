package trace

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/golden"
)

// TestCorruptTraces checks every hand-made corrupt trace (one per read-time
// rule) against testdata/corrupt/expected.golden: the rule, the line and the
// exact message, both for VerifyFile (the reference's order) and for the
// streaming reader (file order).
func TestCorruptTraces(t *testing.T) {
	files, _ := filepath.Glob("testdata/corrupt/*.jsonl")
	sort.Strings(files)
	if len(files) < 15 {
		t.Fatalf("only %d corrupt traces", len(files))
	}
	var got strings.Builder
	for _, f := range files {
		_, err := VerifyFile(f)
		ce, ok := errors.AsType[*CorruptError](err)
		if !ok {
			t.Fatalf("%s: VerifyFile: want a corrupt-trace error, got %v", f, err)
		}
		fmt.Fprintf(&got, "%s\tline %d\t%s\t%s\n", filepath.Base(f), ce.Line, ce.Rule, ce.Msg)
		data, _ := os.ReadFile(f)
		_, serr := Verify(bytes.NewReader(data), f)
		sce, ok := errors.AsType[*CorruptError](serr)
		if !ok {
			t.Fatalf("%s: stream: want a corrupt-trace error, got %v", f, serr)
		}
		if sce.Line != ce.Line || sce.Rule != ce.Rule || sce.Msg != ce.Msg {
			fmt.Fprintf(&got, "%s\tstream: line %d\t%s\t%s\n", filepath.Base(f), sce.Line, sce.Rule, sce.Msg)
		}
		if !strings.HasPrefix(ce.Error(), fmt.Sprintf("trace %q: ", f)) {
			t.Fatalf("error does not name the file: %v", ce)
		}
	}
	golden.CheckString(t, "testdata/corrupt/expected.golden", got.String())
}

func TestReaderAcceptsBlankLinesAndCountsNonBlank(t *testing.T) {
	res, err := VerifyFile("testdata/ok_blank_lines.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if res.Events != 4 || res.Turns != 2 {
		t.Fatalf("%+v", res)
	}
	// A gap after blank lines names the non-blank ordinal (4), not the physical line.
	data := "\n" + `{"kind":"session.header","schema_version":1,"written_at":"2026-11-30T09:23:56Z"}` + "\n\n" +
		`{"turn":0,"seq":0,"ts":"2026-11-30T09:23:56Z","kind":"a","payload":{}}` + "\n\n\n" +
		`{"turn":0,"seq":1,"ts":"2026-11-30T09:23:56Z","kind":"a","payload":{}}` + "\n" +
		`{"turn":0,"seq":3,"ts":"2026-11-30T09:23:56Z","kind":"a","payload":{}}` + "\n"
	_, err = Verify(strings.NewReader(data), "x")
	if ce, _ := errors.AsType[*CorruptError](err); ce == nil || ce.Msg != "gap in seq within turn 0 at line 4: expected seq 2, got 3" {
		t.Fatalf("got %v", err)
	}
}

func TestReaderUnknownKindsPassThrough(t *testing.T) {
	data := `{"kind":"session.header","schema_version":1,"written_at":"2026-11-30T09:23:56Z"}
{"turn":0,"seq":0,"ts":"2026-11-30T09:23:56Z","kind":"myplugin.frobnicated","payload":{"x":[1,{"y":"z"}]},"extra":"ignored"}
{"turn":0,"seq":1,"ts":"2026-11-30T09:23:56+02:00","kind":"","payload":null}
{"turn":0,"seq":2,"kind":"no.payload"}
`
	rd := NewReader(strings.NewReader(data), ReadOptions{})
	ev, err := rd.Next()
	if err != nil || ev.Kind != "myplugin.frobnicated" || string(ev.Payload.(json.RawMessage)) != `{"x":[1,{"y":"z"}]}` {
		t.Fatalf("%+v %v", ev, err)
	}
	ev, err = rd.Next()
	if err != nil || ev.Kind != "" || string(ev.Payload.(json.RawMessage)) != "null" || ev.TS.UTC().Hour() != 7 {
		t.Fatalf("%+v %v", ev, err)
	}
	ev, err = rd.Next()
	if err != nil || ev.Payload != nil || !ev.TS.IsZero() {
		t.Fatalf("%+v %v", ev, err)
	}
	if _, err := rd.Next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
}

func TestReaderLineLimit(t *testing.T) {
	big := `{"turn":0,"seq":0,"kind":"a","payload":"` + strings.Repeat("x", 600<<10) + `"}`
	data := `{"kind":"session.header","schema_version":1}` + "\n" + big + "\n"
	if _, err := Verify(strings.NewReader(data), "x"); err != nil {
		t.Fatalf("600 KiB line under the default limit: %v", err)
	}
	rd := NewReader(strings.NewReader(data), ReadOptions{Name: "x", MaxLineBytes: 256 << 10})
	_, err := rd.Next()
	ce, ok := errors.AsType[*CorruptError](err)
	if !ok || ce.Rule != RuleLineTooLong || ce.Line != 2 || !strings.Contains(ce.Msg, "line 2 is longer than the 262144-byte line limit") {
		t.Fatalf("got %v", err)
	}
	if _, err2 := rd.Next(); err2 != err {
		t.Fatal("error not sticky")
	}
}

func TestReaderEmptyInputs(t *testing.T) {
	for _, in := range []string{"", "\n", "  \n\t\n"} {
		_, err := Verify(strings.NewReader(in), "x")
		if ce, ok := errors.AsType[*CorruptError](err); !ok || ce.Rule != RuleHeaderMissing || ce.Line != 1 {
			t.Fatalf("%q: %v", in, err)
		}
	}
	p := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(p, nil, 0o644)
	if _, err := VerifyFile(p); !isCorrupt(err, RuleHeaderMissing) {
		t.Fatalf("empty file: %v", err)
	}
	// A header alone is a valid, empty trace.
	res, err := Verify(strings.NewReader(`{"kind":"session.header","schema_version":1}`+"\n"), "x")
	if err != nil || res.Events != 0 {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestFollowWaitsAndDetectsTruncation(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.jsonl")
	os.WriteFile(p, []byte("abc"), 0o644)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := Follow(ctx, f, 5*time.Millisecond)
	buf := make([]byte, 10)
	if n, err := r.Read(buf); n != 3 || err != nil {
		t.Fatalf("%d %v", n, err)
	}
	go func() {
		time.Sleep(30 * time.Millisecond)
		af, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		af.WriteString("de")
		af.Close()
	}()
	if n, err := r.Read(buf); n != 2 || err != nil || string(buf[:2]) != "de" {
		t.Fatalf("appended bytes: %d %v", n, err)
	}
	os.Truncate(p, 0)
	if _, err := r.Read(buf); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("truncation: %v", err)
	}
	cancel()
	f2, _ := os.Open(p)
	defer f2.Close()
	if _, err := Follow(ctx, f2, time.Millisecond).Read(buf); err != io.EOF {
		t.Fatalf("cancelled follow: %v", err)
	}
}

// TestReaderHeaderChecksKindAndVersionOnly: upstream decodes only kind and
// schema_version of line 1, so a header whose written_at (or another
// member) has the wrong type still opens there; it must here too (the
// member reads as zero). Found by the trace-eval walk (docs/compat/trace-eval.md A.5).
func TestReaderHeaderChecksKindAndVersionOnly(t *testing.T) {
	for _, h := range []string{
		`{"kind":"session.header","schema_version":1,"written_at":"garbage"}`,
		`{"kind":"session.header","schema_version":1,"written_at":5,"app_id":7,"story":[],"generator":{}}`,
		`{"kind":"session.header","schema_version":-3,"written_at":null}`,
	} {
		data := h + "\n" + `{"turn":0,"seq":0,"ts":"2026-11-30T09:23:56Z","kind":"a","payload":{}}` + "\n"
		res, err := Verify(strings.NewReader(data), "x")
		if err != nil || res.Events != 1 {
			t.Fatalf("%s: %+v %v", h, res, err)
		}
		if !res.Header.WrittenAt.IsZero() || res.Header.AppID != "" || res.Header.Story != "" || res.Header.Generator != "" {
			t.Fatalf("%s: wrong-typed members should read as zero: %+v", h, res.Header)
		}
	}
	res, err := Verify(strings.NewReader(`{"kind":"session.header","schema_version":1,"written_at":"2026-11-30T09:23:56Z","app_id":"a","story":"s","generator":"g"}`+"\n"), "x")
	if err != nil || res.Header.WrittenAt.IsZero() || res.Header.AppID != "a" || res.Header.Story != "s" || res.Header.Generator != "g" {
		t.Fatalf("%+v %v", res.Header, err)
	}
}

// isCorrupt reports whether err is a [CorruptError] under rule (its text
// is pinned once, by testdata/corrupt/expected.golden).
func isCorrupt(err error, rule Rule) bool {
	ce, ok := errors.AsType[*CorruptError](err)
	return ok && ce.Rule == rule
}
