package coverage

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/engine"
)

func sampleProfile() *Profile {
	return &Profile{Files: []*File{
		{Path: "app.yaml", Items: []Item{
			{Kind: engine.ReachState, Line: 3, Col: 3, State: "a", Label: "a", Count: 2},
			{Kind: engine.ReachArc, Line: 5, Col: 9, State: "a", Label: "on go → b", Count: 0},
			{Kind: engine.ReachEffect, Line: 5, Col: 30, State: "a", Label: "set", Count: 1},
		}},
		{Path: "rooms/x \"q\".yaml", Items: []Item{{Kind: engine.ReachExit, Line: 1, Label: "done"}}},
	}}
}

// The JSON profile validates against the schema kitsoki schema coverage
// prints, and reads back to the same profile.
func TestJSONRoundTripAndSchema(t *testing.T) {
	p := sampleProfile()
	var b bytes.Buffer
	if err := WriteJSON(&b, p); err != nil {
		t.Fatal(err)
	}
	sch := storytest.CompileSchema(t, "coverage.json", Schema)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Errorf("the profile does not validate: %v\n%s", err, b.String())
	}
	if !IsJSONProfile(b.Bytes()) || IsJSONProfile([]byte(`{"results": []}`)) {
		t.Error("IsJSONProfile")
	}
	back, err := ParseJSON("p.json", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := WriteJSON(&again, back); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), again.Bytes()) {
		t.Errorf("round trip changed the profile:\n%s\n%s", b.String(), again.String())
	}
	var empty bytes.Buffer
	if err := WriteJSON(&empty, &Profile{}); err != nil {
		t.Fatal(err)
	}
	if empty.String() != "{\n  \"kitsoki_coverage\": 1,\n  \"summary\": {\"arcs\":{\"reached\":0,\"total\":0},\"states\":{\"reached\":0,\"total\":0},\"effects\":{\"reached\":0,\"total\":0}},\n  \"files\": []\n}\n" {
		t.Errorf("empty profile:\n%s", empty.String())
	}
	if err := sch.Validate(mustUnmarshal(t, empty.Bytes())); err != nil {
		t.Errorf("the empty profile does not validate: %v", err)
	}
}

func mustUnmarshal(t *testing.T, b []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A profile that is not one, or is broken, is refused with the file, the
// place and what to do.
func TestParseJSONErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{``, "p.json: not a kitsoki JSON coverage profile: it is empty: no JSON value"},
		{`{"kitsoki_coverage": 1, "files": [`, "cut short"},
		{`{"results": []}`, `unknown field "results"`},
		{`{"files": []}`, "no kitsoki_coverage version"},
		{`{"kitsoki_coverage": 2, "files": []}`, "p.json: kitsoki_coverage: version 2 is not supported"},
		{`{"kitsoki_coverage": "1", "files": []}`, "kitsoki_coverage: expected an integer"},
		{`{"kitsoki_coverage": 1, "files": [{"path": "", "items": []}]}`, "p.json: files[0].path: a story file path is required"},
		{`{"kitsoki_coverage": 1, "files": [{"path": "a", "items": []}, {"path": "a", "items": []}]}`, `files[1].path: "a" is listed twice`},
		{`{"kitsoki_coverage": 1, "files": [{"path": "a", "items": [{"kind": "line", "line": 1, "col": 1, "count": 0}]}]}`, `files[0].items[0].kind: "line" is not a kind (state, arc, timeout, on_error, on_complete, exit, effect)`},
		{`{"kitsoki_coverage": 1, "files": [{"path": "a", "items": [{"kind": "arc", "line": 0, "col": 1, "count": 0}]}]}`, "items[0].line: 0: lines start at 1"},
		{`{"kitsoki_coverage": 1, "files": [{"path": "a", "items": [{"kind": "arc", "line": 1, "col": -1, "count": 0}]}]}`, "items[0].col: -1"},
		{`{"kitsoki_coverage": 1, "files": [{"path": "a", "items": [{"kind": "arc", "line": 1, "col": 1, "count": -3}]}]}`, "items[0].count: -3: a count is 0 or more"},
		{`{"kitsoki_coverage": 1, "files": [{"path": "a", "items": [{"kind": "arc", "line": 1, "col": 1, "count": 1}, {"kind": "arc", "line": 1, "col": 1, "count": 1}]}]}`, "items[1]: a second arc at 1:1"},
		{`{"kitsoki_coverage": 1, "files": []} {}`, "unexpected data after the profile"},
	} {
		_, err := ParseJSON("p.json", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.in, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), " json: ") {
			t.Errorf("%s: a Go error reaches the user: %v", c.in, err)
		}
	}
}

// Merging is a sum over the union, whatever the order.
func TestMergeOrderFree(t *testing.T) {
	a := sampleProfile()
	b := &Profile{Files: []*File{{Path: "app.yaml", Items: []Item{
		{Kind: engine.ReachArc, Line: 5, Col: 9, State: "a", Label: "on go → b", Count: 4},
		{Kind: engine.ReachState, Line: 9, Col: 3, State: "b", Label: "b", Count: 1},
	}}}}
	var x, y bytes.Buffer
	_ = WriteJSON(&x, Merge(a, b))
	_ = WriteJSON(&y, Merge(b, a))
	if x.String() != y.String() {
		t.Fatalf("merge depends on the order:\n%s\n%s", x.String(), y.String())
	}
	m := Merge(a, b)
	if got := m.Files[0].Items[1]; got.Count != 4 || got.Kind != engine.ReachArc {
		t.Errorf("arc %+v", got)
	}
	if n := len(m.Files[0].Items); n != 4 {
		t.Errorf("%d items, want the union of 4", n)
	}
	if s := m.Summarize(); s.Arcs != (Figure{1, 1}) || s.States != (Figure{3, 3}) && s.States != (Figure{2, 3}) {
		t.Errorf("summary %+v", s)
	}
}

// FuzzParseJSON: any input is a profile or an error, never a panic, and a
// profile that parses writes back to JSON that parses to the same bytes.
func FuzzParseJSON(f *testing.F) {
	var b bytes.Buffer
	_ = WriteJSON(&b, sampleProfile())
	f.Add(b.Bytes())
	f.Add([]byte(`{"kitsoki_coverage": 1, "files": []}`))
	f.Add([]byte(`{"kitsoki_coverage": 1, "files": [{"path": "a", "items": [{"kind": "arc", "line": 1, "col": 1, "count": 9223372036854775807}]}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseJSON("f.json", data)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteJSON(&out, p); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(out.Bytes()) {
			t.Fatalf("wrote invalid JSON:\n%s", out.String())
		}
		back, err := ParseJSON("again.json", out.Bytes())
		if err != nil {
			t.Fatalf("cannot read back: %v\n%s", err, out.String())
		}
		var again bytes.Buffer
		_ = WriteJSON(&again, back)
		if !bytes.Equal(out.Bytes(), again.Bytes()) {
			t.Fatal("not stable")
		}
	})
}
