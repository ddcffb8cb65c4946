package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/trace"
)

// callsTrace writes a trace of two agent calls: one served by an MCP
// session with two stray lines (one hostile), and one whose ids and names
// hold newlines and escape sequences.
func callsTrace(t *testing.T) string {
	t.Helper()
	lines := []string{
		`{"kind":"session.header","schema_version":1,"written_at":"2026-11-30T09:00:00Z","app_id":"a","story":"a/app.yaml","generator":"kitsoki run"}`,
		`{"turn":1,"seq":0,"ts":"2026-11-30T09:00:01Z","kind":"agent.call.start","state_path":"s","call_id":"c1","payload":{"verb":"decide","agent":"mcp","model":"m"}}`,
		`{"turn":1,"seq":1,"ts":"2026-11-30T09:00:02Z","kind":"agent.call.complete","state_path":"s","call_id":"c1","payload":{"verb":"decide","agent":"mcp","duration_ms":10,"mcp_session_id":"sess-42","stray":["mcp plugin agent.mcp wrote {\"id\":1} after the answer to request 1","evil\n::error::x\u001b]0;t\u0007"]}}`,
		`{"turn":1,"seq":2,"ts":"2026-11-30T09:00:03Z","kind":"agent.call.start","state_path":"s\n1 fake","call_id":"c2\n::error::pwn","payload":{"verb":"ask\nx","agent":"a\u202eb\n  fake\t9","model":"m\nn"}}`,
		`{"turn":1,"seq":3,"ts":"2026-11-30T09:00:04Z","kind":"agent.call.error","state_path":"s\n1 fake","call_id":"c2\n::error::pwn","payload":{"verb":"ask\nx","duration_ms":5,"error":"agent: bad\nkind: x","mcp_session_id":"s\u001b[2J\nid"}}`,
	}
	p := filepath.Join(t.TempDir(), "calls.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// trace calls shows a call's MCP session and stray lines, which were in the
// raw agent.call.* events only, each on a line of its own and escaped; no
// field of a hostile trace adds a row or reaches the terminal raw.
func TestTraceCallsShowsMCPSessionAndStray(t *testing.T) {
	p := callsTrace(t)
	out, errOut, code := trRun(t, "", "trace", "calls", p)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{
		"CALL_ID ",
		"c1 ",
		"                  mcp session  sess-42",
		`                  stray        mcp plugin agent.mcp wrote {"id":1} after the answer to request 1`,
		`                  stray        evil\n::error::x\x1b]0;t\x07`,
		`c2\n::error::pwn `,
		`                  mcp session  s\x1b[2J\nid`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want it to start %q", i+1, lines[i], w)
		}
	}
	if strings.ContainsAny(out, "\x1b\x07\u202e") {
		t.Errorf("raw control characters printed:\n%q", out)
	}
	if !strings.Contains(lines[5], `s\n1 fake`) || !strings.Contains(lines[5], `a\u202eb\n  f`) || !strings.Contains(lines[5], `error: bad\nkind`) {
		t.Errorf("row of the hostile call: %q", lines[5])
	}

	out, _, code = trRun(t, "", "trace", "calls", "--json", p)
	var calls []trace.Call
	if err := json.Unmarshal([]byte(out), &calls); code != 0 || err != nil || len(calls) != 2 {
		t.Fatalf("calls --json: exit %d %v\n%s", code, err, out)
	}
	if c := calls[0]; c.MCPSessionID != "sess-42" || len(c.Stray) != 2 || c.Stray[1] != "evil\n::error::x\x1b]0;t\x07" {
		t.Errorf("first call: %+v", c)
	}
	if c := calls[1]; c.MCPSessionID != "s\x1b[2J\nid" || c.Stray != nil {
		t.Errorf("second call: %+v", c)
	}
	if strings.ContainsAny(out, "\x1b\x07") || strings.Contains(out, "\n::error") {
		t.Errorf("--json prints raw controls or a command line:\n%s", out)
	}
}

// trace stats and trace ls print names from a trace in rows: a newline or
// a tab in an agent's name or the app id adds no row and moves no column.
func TestTraceStatsRowsHoldHostileNames(t *testing.T) {
	p := callsTrace(t)
	out, errOut, code := trRun(t, "", "trace", "stats", p)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for l := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "fake") {
			t.Errorf("an agent name added a row %q:\n%s", l, out)
		}
	}
	if !strings.Contains(out, `a\u202eb\n  fake\t9`) {
		t.Errorf("the agent's name is not shown escaped:\n%s", out)
	}
}

// trace show prints one line per event: a kind, state, payload key, call
// id or name holding a newline cannot forge a timeline line of its own.
func TestTraceShowOneLinePerEvent(t *testing.T) {
	lines := []string{
		`{"kind":"session.header","schema_version":1,"written_at":"2026-01-01T00:00:00Z","app_id":"a\nfake header"}`,
		`{"turn":1,"seq":0,"ts":"2026-01-01T00:00:01Z","kind":"machine.say\n09:00:03.000  say     x","payload":{"text":"k"}}`,
		`{"turn":1,"seq":1,"ts":"2026-01-01T00:00:01Z","kind":"x.y","state_path":"s\nforged","payload":{"k\n09:00:03.000  say     forged":"v\nw"}}`,
		`{"turn":1,"seq":2,"ts":"2026-01-01T00:00:01Z","kind":"machine.state_entered","payload":{"state":"a\n09:00:04.000  enter   forged"}}`,
		`{"turn":1,"seq":3,"ts":"2026-01-01T00:00:01Z","kind":"agent.call.start","call_id":"c\nx","payload":{"verb":"ask\n09:00:05.000 forged","agent":"a\nb","model":"m\nn"}}`,
		`{"turn":1,"seq":4,"ts":"2026-01-01T00:00:01Z","kind":"agent.call.error","call_id":"c\nx","payload":{"verb":"ask","error":"agent: k\nforged: e\nline"}}`,
	}
	p := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := trRun(t, "", "trace", "show", "--color", "never", p)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(got) != 2+5 { // header, turn rule, one line per event
		t.Fatalf("%d lines for 5 events:\n%s", len(got), out)
	}
	for _, l := range got[2:] {
		if !strings.HasPrefix(l, "00:00:01.000  ") {
			t.Errorf("a line that is not an event's: %q", l)
		}
	}
}
