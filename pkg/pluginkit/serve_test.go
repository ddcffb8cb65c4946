package pluginkit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/gotype"
)

func replies(t *testing.T, out string) []map[string]any {
	t.Helper()
	var rs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("reply %q: %v", l, err)
		}
		rs = append(rs, m)
	}
	return rs
}

func TestServeIOAnswersInOrder(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"agent.ask","params":{"verb":"decide","prompt":"p","call_id":"00000000000000aa","world":{"vars":{"x":1}}}}`,
		``,
		`{"jsonrpc":"2.0","id":"two","method":"agent.nope","params":{}}`,
		`not json`,
		`{"jsonrpc":"2.0","id":3,"method":"agent.ask","params":{"verb":"fail"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"agent.ask","params":{"verb":"coded"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"agent.ask","params":"not an object"}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	h := func(ctx context.Context, r *Request) (*Response, error) {
		switch r.Verb {
		case "fail":
			return nil, errors.New("no rule matched")
		case "coded":
			return nil, &Error{Code: -32001, Message: "busy", Data: map[string]any{"retry": true}}
		}
		return Submit(map[string]any{"verb": r.Verb, "x": r.World.Vars["x"], "call": r.CallID}, map[string]any{"cost_usd": 0.001})
	}
	if err := ServeIO(context.Background(), strings.NewReader(in), &out, h); err != nil {
		t.Fatal(err)
	}
	rs := replies(t, out.String())
	if len(rs) != 6 {
		t.Fatalf("%d replies, want 6:\n%s", len(rs), out.String())
	}
	res := rs[0]["result"].(map[string]any)
	if sub := res["submission"].(map[string]any); sub["verb"] != "decide" || sub["x"] != 1.0 || sub["call"] != "00000000000000aa" {
		t.Errorf("submission %v", sub)
	}
	if rs[0]["id"] != 1.0 || rs[1]["id"] != "two" || rs[2]["id"] != nil {
		t.Errorf("ids %v %v %v", rs[0]["id"], rs[1]["id"], rs[2]["id"])
	}
	codes := []float64{CodeMethodNotFound, CodeParse, CodeServer, -32001, CodeInvalidParams}
	for i, want := range codes {
		e, _ := rs[i+1]["error"].(map[string]any)
		if e == nil || e["code"] != want {
			t.Errorf("reply %d: error %v, want code %v", i+1, rs[i+1]["error"], want)
		}
	}
	if e := rs[4]["error"].(map[string]any); e["message"] != "busy" || e["data"].(map[string]any)["retry"] != true {
		t.Errorf("coded error %v", e)
	}
}

func TestServeIODeadlineReachesHandler(t *testing.T) {
	dl := time.Now().Add(time.Hour).UTC().Truncate(time.Millisecond)
	in := `{"jsonrpc":"2.0","id":1,"method":"agent.ask","params":{"verb":"ask","deadline":"` + dl.Format(time.RFC3339Nano) + `"}}` + "\n"
	var got time.Time
	h := func(ctx context.Context, r *Request) (*Response, error) {
		got, _ = ctx.Deadline()
		return nil, nil
	}
	var out bytes.Buffer
	if err := ServeIO(context.Background(), strings.NewReader(in), &out, h); err != nil {
		t.Fatal(err)
	}
	if !got.Equal(dl) {
		t.Errorf("handler deadline %v, want %v", got, dl)
	}
	if rs := replies(t, out.String()); rs[0]["result"] == nil {
		t.Errorf("nil response should be an empty result: %v", rs[0])
	}
}

func TestServeIORefusesOversizedLine(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"agent.ask","params":{"prompt":"` + strings.Repeat("x", 300) + `"}}` + "\n"
	err := serveIO(context.Background(), strings.NewReader(in), &bytes.Buffer{}, func(context.Context, *Request) (*Response, error) { return nil, nil }, 100)
	if err == nil || !strings.Contains(err.Error(), "larger than 100 bytes") {
		t.Fatalf("err = %v", err)
	}
}

// FuzzServeIO: any request stream within the frame bound: each line
// that is not blank gets exactly one reply line, in order: a JSON-RPC 2.0
// object with exactly one of result and error, echoing the request's id
// (null for a line that is not a request); an error's message names no Go
// type.
func FuzzServeIO(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"agent.ask","params":{"verb":"ask"}}`)
	f.Add(`{"id":[1],"method":"agent.ask","params":null}`)
	f.Add("\x00\n\n{")
	f.Add(`{"id":1,"method":"agent.ask","params":{"deadline":5,"world":{"vars":[]}}}` + "\n[2]\n{\"method\":{}}")
	f.Add("{\"id\":\"a\",\"method\":\"agent.ask\",\"params\":{\"turn\":\"x\"}}\r\n{\"id\": 2 ,\"method\":\"nope\"}\n \t\n{\"id\":3,\"id\":4,\"method\":\"agent.ask\",\"params\":{}}")
	f.Fuzz(func(t *testing.T, s string) {
		var out bytes.Buffer
		if serveIO(context.Background(), strings.NewReader(s), &out, func(context.Context, *Request) (*Response, error) { return Submit("ok", nil) }, 1<<16) != nil {
			return
		}
		var reqs []string
		for _, l := range strings.Split(s, "\n") {
			if l := bytes.TrimSpace([]byte(l)); len(l) > 0 {
				reqs = append(reqs, string(l))
			}
		}
		got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if out.Len() == 0 {
			got = nil
		}
		if len(got) != len(reqs) {
			t.Fatalf("%d request lines, %d replies:\n%s", len(reqs), len(got), out.String())
		}
		for i, l := range got {
			var r struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Result  json.RawMessage `json:"result"`
				Error   *Error          `json:"error"`
			}
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("reply %q: %v", l, err)
			}
			if r.Error != nil {
				if n := gotype.Named(r.Error.Message, []byte(reqs[i])); n != "" || strings.Contains(r.Error.Message, "UnmarshalJSON") || strings.Contains(r.Error.Message, "pluginkit.") {
					t.Fatalf("request %q refused naming a Go type (%s): %s", reqs[i], n, r.Error.Message)
				}
			}
			if r.JSONRPC != "2.0" || (r.Result == nil) == (r.Error == nil) {
				t.Fatalf("reply %q: want jsonrpc 2.0 and one of result and error", l)
			}
			want := json.RawMessage("null")
			var req rpcRequest
			if json.Unmarshal([]byte(reqs[i]), &req) == nil && req.ID != nil {
				var c bytes.Buffer
				if err := json.Compact(&c, req.ID); err != nil {
					t.Fatal(err)
				}
				want = c.Bytes()
			}
			if !bytes.Equal(r.ID, want) {
				t.Fatalf("request %q answered with id %s, want %s", reqs[i], r.ID, want)
			}
		}
	})
}
