package engine

import (
	"strings"
	"testing"

	"kitsoki/pkg/host"
)

// strictStory sets a string on typed keys and increments a string key.
const strictStory = `app: { id: strict, version: 0.1.0 }
world:
  n:    { type: int, default: 3 }
  flag: { type: bool, default: true }
  s:    { type: string, default: "abc" }
intents:
  set: {}
  inc: {}
  noop: {}
root: a
states:
  a:
    on:
      set:
        - target: .
          effects:
            - set: { n: "7", flag: "false" }
      inc:
        - target: .
          effects:
            - increment: { s: 2 }
      noop: [ { target: . } ]
`

// Without Strict a set coerced to a declared type is journaled as its
// string and reads back a string after the turn, and an increment of a
// string restarts from the delta (as the existing engine); with Strict
// the coerced values are journaled and kept, and the increment fails the
// turn.
func TestStrictCoercionAndIncrement(t *testing.T) {
	for _, strict := range []bool{false, true} {
		m := compileSource(t, "app.yaml", strictStory, CompileOptions{})
		sink := &recSink{}
		s, err := Start(t.Context(), m, SessionOptions{Options: Options{Strict: strict, Sink: sink}})
		if err != nil {
			t.Fatal(err)
		}
		tn := fire(t, s, "set")
		var rec []any
		for _, e := range kindsOf(tn.Events, KindWorldUpdate) {
			for _, v := range payloadMap(t, e.Payload)["set"].(map[string]any) {
				rec = append(rec, v)
			}
		}
		fire(t, s, "noop")
		w := s.World()
		if strict {
			if w["n"] != int64(7) || w["flag"] != false || !sameJSON(rec, []any{false, 7}) {
				t.Errorf("strict: n %#v flag %#v, journaled %v", w["n"], w["flag"], rec)
			}
		} else if w["n"] != "7" || w["flag"] != "false" || !sameJSON(rec, []any{"false", "7"}) {
			t.Errorf("n %#v flag %#v, journaled %v", w["n"], w["flag"], rec)
		}
		tn = fire(t, s, "inc")
		switch {
		case strict && (tn.Err == nil || !strings.Contains(tn.Err.Error(), "increment.s: world value abc is not an integer (--strict)")):
			t.Errorf("strict increment: %v", tn.Err)
		case !strict && (tn.Err != nil || toString(s.World()["s"]) != "2"):
			t.Errorf("increment: %v, s %#v", tn.Err, s.World()["s"])
		}
		s.Close()
	}
}

// A set of a value no JSON holds (1 / 0): as upstream the turn keeps it
// and journals null, and the next turn has the declared default again;
// with Strict the turn fails naming the key (conformance
// values-non-finite holds the upstream side).
func TestStrictNonFiniteSet(t *testing.T) {
	const src = `app: { id: nonfinite, version: 0.1.0 }
world:
  z: { type: int, default: 0 }
  x: { type: float, default: 1.5 }
intents: { a: {}, noop: {} }
root: s
states:
  s:
    on:
      a: [ { target: ., effects: [ { set: { x: "{{ 1 / world.z }}" } } ] } ]
      noop: [ { target: . } ]
`
	strictAndNot(t, src, CompileOptions{}, nil, func(s *Session, tn *Turn, strict bool) {
		if strict {
			if tn.Err == nil || !strings.Contains(tn.Err.Error(), "set.x: the value is +Inf") {
				t.Errorf("strict: %v", tn.Err)
			}
			return
		}
		ups := kindsOf(tn.Events, KindWorldUpdate)
		// as upstream, whose log cannot encode the value: no payload
		if tn.Err != nil || len(ups) != 1 || ups[0].Payload != nil {
			t.Errorf("err %v, world.update %v", tn.Err, ups)
		}
		fire(t, s, "noop")
		if x := s.World()["x"]; x != 1.5 {
			t.Errorf("next turn x %#v, want the default 1.5", x)
		}
	})
}

// A call's with: rendering an infinity goes out as upstream sends it (the
// handler answers, the bind lands, harness.called keeps no payload: the
// log cannot encode it; conformance with-non-finite); --strict refuses it
// at dispatch, naming the call.
func TestStrictNonFiniteWith(t *testing.T) {
	const src = `app: { id: nonfinite-with, version: 0.1.0 }
world:
  z: { type: int, default: 0 }
  r: { type: any, default: "" }
intents: { a: {} }
root: s
states:
  s:
    on:
      a: [ { target: ., effects: [ { invoke: host.job, with: { x: "{{ 1 / world.z }}" }, bind: { r: v } } ] } ]
`
	strictAndNot(t, src, CompileOptions{LateHandlers: true}, instantJobHosts, func(s *Session, tn *Turn, strict bool) {
		if strict {
			if tn.Err == nil || !strings.Contains(tn.Err.Error(), "invoke host.job: with: the value is +Inf") {
				t.Errorf("strict: %v", tn.Err)
			}
			return
		}
		called := kindsOf(tn.Events, KindHarnessCalled)
		if tn.Err != nil || s.World()["r"] != "K" || len(called) != 1 || called[0].Payload != nil {
			t.Errorf("err %v, r %#v, harness.called %v", tn.Err, s.World()["r"], called)
		}
	})
}

// TestStrictNonFiniteSlots: an emit_intent slot rendering an infinity
// fires the hop without --strict (conformance emit-slots-non-finite) and
// fails the turn with it, naming the slot.
func TestStrictNonFiniteSlots(t *testing.T) {
	const src = `app: { id: nonfinite-slots, version: 0.1.0 }
world:
  z: { type: int, default: 0 }
intents: { a: {}, put: { slots: { v: { type: any } } } }
root: s
states:
  s:
    on:
      a: [ { target: ., effects: [ { emit_intent: put, slots: { v: "{{ 1 / world.z }}" } } ] } ]
      put: [ { target: t } ]
  t: {}
`
	strictAndNot(t, src, CompileOptions{}, nil, func(_ *Session, tn *Turn, strict bool) {
		if strict {
			if tn.Err == nil || !strings.Contains(tn.Err.Error(), "slots.v: the value is +Inf") {
				t.Errorf("strict: %v", tn.Err)
			}
		} else if tn.Err != nil || len(kindsOf(tn.Events, KindStateEntered)) == 0 {
			t.Errorf("err %v, events %v", tn.Err, tn.Events)
		}
	})
}

// strictAndNot starts src without and then with --strict, fires a in
// each session and hands the turn to check.
func strictAndNot(t *testing.T, src string, co CompileOptions, hosts func() *host.Registry, check func(s *Session, tn *Turn, strict bool)) {
	t.Helper()
	for _, strict := range []bool{false, true} {
		m := compileSource(t, "app.yaml", src, co)
		so := SessionOptions{Options: Options{Strict: strict, Sink: &recSink{}}}
		if hosts != nil {
			so.Hosts = hosts()
		}
		s, err := Start(t.Context(), m, so)
		if err != nil {
			t.Fatal(err)
		}
		check(s, fire(t, s, "a"), strict)
		s.Close()
	}
}

// A bind of a value no JSON holds, or of the live world, is bound for the
// turn and lost to the log as upstream does (conformance
// bind-template-non-finite, bind-non-finite-logged); --strict fails the
// turn naming the key, as it does a set: of the same. The call is a real
// host.run (a subprocess whose exit code 0 divides 1).
func TestStrictNonFiniteBind(t *testing.T) {
	const src = `app: { id: nonfinite-bind, version: 0.1.0 }
world:
  x: { type: float, default: 1.5 }
intents: { a: {}, noop: {} }
root: s
states:
  s:
    on:
      a: [ { target: ., effects: [ { invoke: host.run, with: { cmd: "true" }, bind: { x: "BIND" } } ] } ]
      noop: [ { target: . } ]
`
	for _, c := range []struct{ name, bind, want string }{
		{"infinity", "{{ 1 / result.exit_code }}", "bind.x: the value is +Inf"},
		{"nan-in-list", "{{ [result.exit_code / 0] }}", "bind.x: the value is NaN"},
		{"world", "{{ world }}", "bind.x: the value holds the whole world"},
	} {
		t.Run(c.name, func(t *testing.T) {
			strictAndNot(t, strings.Replace(src, "BIND", c.bind, 1), CompileOptions{}, nil, func(s *Session, tn *Turn, strict bool) {
				if strict {
					if tn.Err == nil || !strings.Contains(tn.Err.Error(), c.want) {
						t.Errorf("strict: %v", tn.Err)
					}
					return
				}
				if tn.Err != nil {
					t.Fatalf("err %v", tn.Err)
				}
				fire(t, s, "noop")
				if x := s.World()["x"]; x != 1.5 {
					t.Errorf("next turn x %#v, want the default 1.5 (the bind is lost to the log)", x)
				}
			})
		})
	}
}
