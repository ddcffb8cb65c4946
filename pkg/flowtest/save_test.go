package flowtest

import (
	"strings"
	"testing"
)

// A saved fixture reads back as written, whatever the run's strings:
// keys and values that look like numbers, booleans, YAML syntax or the
// document separator stay strings; control characters survive.
func FuzzSavedFixtureReadsBack(f *testing.F) {
	for _, s := range []string{"plain", "1", "true", "null", "~", "- x", "a: b", "\n---\nx", "#c", "'q'", "\"", "\x1b[31m", "  lead", "multi\nline\n", "\t", "{}", "é"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, key, val string) {
		if key == "" || !validUTF8(key) || !validUTF8(val) { // a run's values come from JSON: valid UTF-8
			t.Skip()
		}
		sf := &savedFixture{
			App: "../app.yaml", InitialState: val,
			InitialWorld: map[string]any{key: val},
			Stubs:        []savedStub{{Name: "host.run", Top: &answer{Data: map[string]any{key: val}}}},
			Turns:        []savedTurn{{Intent: "go", Slots: map[string]any{key: val}, ExpectState: val, ExpectWorld: map[string]any{key: val}}},
		}
		data, err := sf.marshal()
		if err != nil {
			t.Fatal(err)
		}
		fxs, ds := parse("flows/saved.yaml", data)
		if len(fxs) != 1 {
			t.Fatalf("%v\n%s", ds, data)
		}
		fx := fxs[0]
		if fx.InitialState != val || len(fx.InitialWorld) != 1 || fx.InitialWorld[0].Key != key || fx.InitialWorld[0].Value != val {
			t.Fatalf("initial: %q %v\n%s", fx.InitialState, fx.InitialWorld, data)
		}
		tr := fx.Turns[0]
		if tr.Intent.Name != "go" || len(tr.Intent.Slots) != 1 || tr.Intent.Slots[0].Value != val || *tr.ExpectState != val || tr.ExpectWorld[0].Value != val {
			t.Fatalf("turn: %+v\n%s", tr, data)
		}
		if fx.HostHandlers[0].Data[key] != val {
			t.Fatalf("stub: %v\n%s", fx.HostHandlers[0].Data, data)
		}
	})
}

func validUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// Calls answering alike are one stub; per call id, by_call; a call site
// answering differently on different calls is no stub at all.
func TestPlanStubs(t *testing.T) {
	a := answer{Data: map[string]any{"stdout": "a"}}
	b := answer{Data: map[string]any{"stdout": "b"}}
	stubs, ok := planStubs([]call{{Namespace: "host.run", ID: "x", Answer: a}, {Namespace: "host.run", ID: "y", Answer: a}, {Namespace: "host.git", Answer: b}})
	if !ok || len(stubs) != 2 || stubs[0].Name != "host.git" || stubs[1].Top == nil {
		t.Fatalf("%+v %v", stubs, ok)
	}
	stubs, ok = planStubs([]call{{Namespace: "host.run", ID: "x", Answer: a}, {Namespace: "host.run", ID: "y", Answer: b}, {Namespace: "host.run", ID: "x", Answer: a}})
	if !ok || len(stubs[0].ByCall) != 2 {
		t.Fatalf("%+v %v", stubs, ok)
	}
	if _, ok := planStubs([]call{{Namespace: "host.run", ID: "x", Answer: a}, {Namespace: "host.run", ID: "x", Answer: b}}); ok {
		t.Fatal("one call site with two answers was stubbed")
	}
	if _, ok := planStubs([]call{{Namespace: "host.run", Answer: a}, {Namespace: "host.run", Answer: b}}); ok {
		t.Fatal("calls without ids answering differently were stubbed")
	}
}

// An infrastructure failure (no data) is replayed as infra_error, a
// domain error with its data.
func TestAnswerOf(t *testing.T) {
	if a := answerOf(nil, "boom"); a.InfraError != "boom" || a.Error != "" {
		t.Fatalf("%+v", a)
	}
	if a := answerOf(map[string]any{"exit_code": 1.0}, "exit 1"); a.Error != "exit 1" || a.Data == nil {
		t.Fatalf("%+v", a)
	}
}
