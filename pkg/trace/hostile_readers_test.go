package trace

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A call's result event may list stray lines and name its MCP session;
// the Call keeps both, bounded whatever a hostile trace lists.
func TestCallKeepsMCPSessionAndBoundedStray(t *testing.T) {
	long := strings.Repeat("é", MaxStrayBytes)
	huge := "[" + strings.Repeat(`"",`, 200_000) + `1,{"a":[]},"` + long + `"]`
	for _, tc := range []struct {
		name, stray string
		want        []string
	}{
		{"absent", ``, nil},
		{"not a list", `"one line"`, nil},
		{"empty", `[]`, nil},
		{"two", `["a","b\n"]`, []string{"a", "b\n"}},
		{"other types counted", `[1,"a",null,{"x":"y"}]`, []string{"a", "... and 3 more stray lines"}},
		{"long line clipped", `["` + long + `"]`, []string{long[:MaxStrayBytes] + "…"}},
		{"huge list", huge, []string{"", "", "", "", "", "", "", "", "... and 199995 more stray lines"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			payload := `{"verb":"ask","mcp_session_id":"s-1"`
			if tc.stray != "" {
				payload += `,"stray":` + tc.stray
			}
			payload += "}"
			var tr CallTracker
			tr.Observe(&Event{Kind: "agent.call.start", CallID: "c", Payload: json.RawMessage(`{"verb":"ask"}`)})
			c := tr.Observe(&Event{Kind: "agent.call.complete", CallID: "c", Payload: json.RawMessage(payload)})
			if c == nil || c.MCPSessionID != "s-1" {
				t.Fatalf("call %+v", c)
			}
			if len(c.Stray) != len(tc.want) {
				t.Fatalf("stray %d lines %q, want %q", len(c.Stray), c.Stray, tc.want)
			}
			for i := range tc.want {
				if c.Stray[i] != tc.want[i] {
					t.Errorf("stray[%d] = %.40q…, want %.40q…", i, c.Stray[i], tc.want[i])
				}
			}
		})
	}
}

// FuzzStrayList: whatever an event's stray member holds, the list kept is
// bounded and nothing panics; of a valid array, the lines kept and counted
// are its members.
func FuzzStrayList(f *testing.F) {
	for _, s := range []string{`["a","b"]`, `[1,"a",null]`, `["x"` + strings.Repeat(`,""`, 20) + `]`, `[`, `[[`, `{}`, `"s"`, `["\ud800"]`, `["a","b","c","d","e","f","g","h",["]"],{"a":"}\""}, "\\"]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got := strayList(raw)
		if len(got) > MaxStray+1 {
			t.Fatalf("%d lines kept", len(got))
		}
		for _, s := range got {
			if len(s) > MaxStrayBytes+len("…") && !strings.HasPrefix(s, "... and ") {
				t.Fatalf("line of %d bytes kept", len(s))
			}
		}
		var all []json.RawMessage
		if json.Unmarshal(raw, &all) != nil || len(all) == 0 {
			return
		}
		total := len(got)
		if n := len(got); n > 0 {
			var more int
			if _, err := fmt.Sscanf(got[n-1], "... and %d more stray lines", &more); err == nil {
				total += more - 1
			}
		}
		if total != len(all) {
			t.Fatalf("%d members, %d kept or counted: %q", len(all), total, got)
		}
	})
}

// Many overlapping calls: closing one no longer searches and shifts the
// list of open calls (100,000 calls open at once took 50 s to pair); the
// list keeps at most twice the open calls past a small slack, and Open
// still lists the open ones in start order, a reused id once.
func TestCallTrackerManyOpenCalls(t *testing.T) {
	var tr CallTracker
	ev := func(kind, id string) *Event {
		return &Event{Kind: kind, CallID: id, Payload: json.RawMessage(`{"verb":"ask"}`)}
	}
	const n = 20_000
	for i := range n {
		tr.Observe(ev("agent.call.start", fmt.Sprint("c", i)))
	}
	for i := n - 1; i >= 0; i-- { // last started, first done: the worst order for a search
		if i%1000 == 7 {
			continue // left open
		}
		if c := tr.Observe(ev("agent.call.complete", fmt.Sprint("c", i))); c == nil || c.CallID != fmt.Sprint("c", i) {
			t.Fatalf("call c%d not paired: %+v", i, c)
		}
		if len(tr.order) > 2*len(tr.open)+64 {
			t.Fatalf("%d calls kept for %d open", len(tr.order), len(tr.open))
		}
	}
	tr.Observe(ev("agent.call.start", "c1"))    // closed above: a new call under its id
	tr.Observe(ev("agent.call.start", "c1007")) // still open: the same call
	var got []string
	for c := range tr.Open() {
		got = append(got, c.CallID)
	}
	want := []string{"c7", "c1007", "c2007", "c3007", "c4007", "c5007", "c6007", "c7007", "c8007", "c9007",
		"c10007", "c11007", "c12007", "c13007", "c14007", "c15007", "c16007", "c17007", "c18007", "c19007", "c1"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("open calls %v, want %v", got, want)
	}
}

// PeekAppID reads a header in one small read, or up to 64 KiB when it is
// longer; a header line that does not end within 64 KiB gives no app id.
func TestPeekAppID(t *testing.T) {
	dir := t.TempDir()
	pad := func(n int) string { return strings.Repeat("x", n) }
	for name, tc := range map[string]struct{ body, want string }{
		"short":       {`{"kind":"session.header","app_id":"a1"}` + "\n{}\n", "a1"},
		"long":        {`{"kind":"session.header","pad":"` + pad(10<<10) + `","app_id":"a2"}` + "\n", "a2"},
		"at 64 KiB":   {`{"kind":"session.header","app_id":"a3","pad":"` + pad(64<<10) + `"}` + "\n", ""},
		"no newline":  {`{"kind":"session.header","app_id":"a4"}`, ""},
		"empty":       {"", ""},
		"4 KiB exact": {`{"app_id":"a5","pad":"` + pad(4<<10-len(`{"app_id":"a5","pad":""}`)-1) + `"}` + "\n", "a5"},
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".jsonl")
		if err := os.WriteFile(p, []byte(tc.body), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := PeekAppID(p); got != tc.want {
			t.Errorf("%s: PeekAppID = %q, want %q", name, got, tc.want)
		}
	}
}
