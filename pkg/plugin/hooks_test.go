package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"kitsoki/internal/recost"
	"strings"
	"testing"

	"kitsoki/internal/testing/gotype"
)

type recorder struct{ events []Event }

func (r *recorder) emit(ev Event) error { r.events = append(r.events, ev); return nil }

func (r *recorder) kinds() string {
	var ks []string
	for _, e := range r.events {
		ks = append(ks, e.Kind+":"+e.Payload.Plugin)
	}
	return strings.Join(ks, ",")
}

func appendPrompt(s string) HandlerFunc {
	return func(_ context.Context, _ Point, p Payload) (Result, error) {
		return Result{Outcome: outcomeContinue, Payload: Payload{"prompt": p["prompt"].(string) + s}}, nil
	}
}

func TestChainWaterfallOrderAndHalt(t *testing.T) {
	var sawThird bool
	c := newChain(
		Registration{Point: pointPreDispatch, PluginID: "one", OnError: onErrorContinue, Handler: appendPrompt(" +1")},
		Registration{Point: pointPostReturn, PluginID: "other-point", OnError: onErrorContinue, Handler: appendPrompt(" never")},
		Registration{Point: pointPreDispatch, PluginID: "two", OnError: onErrorContinue, Handler: appendPrompt(" +2")},
		Registration{Point: pointPreDispatch, PluginID: "noop", OnError: onErrorContinue, Handler: HandlerFunc(func(context.Context, Point, Payload) (Result, error) {
			return Result{Outcome: outcomeContinue}, nil
		})},
	)
	rec := &recorder{}
	out, halt, err := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "p", "verb": "decide"}, rec.emit)
	if err != nil || halt != nil {
		t.Fatal(err, halt)
	}
	if out["prompt"] != "p +1 +2" || out["verb"] != "decide" {
		t.Fatalf("payload = %v", out)
	}
	if rec.kinds() != "hook.rewrote:one,hook.rewrote:two" || rec.events[0].Payload.Changed[0] != "prompt" {
		t.Fatalf("events = %s", rec.kinds())
	}

	// A halt stops the chain and the action.
	c = newChain(
		Registration{Point: pointPreDispatch, PluginID: "one", OnError: onErrorContinue, Handler: appendPrompt(" +1")},
		Registration{Point: pointPreDispatch, PluginID: "stop", OnError: onErrorContinue, Handler: HandlerFunc(func(_ context.Context, _ Point, p Payload) (Result, error) {
			if p["prompt"] != "p +1" {
				t.Errorf("second handler saw %v, want the first one's rewrite", p["prompt"])
			}
			return Result{Outcome: outcomeHalt, Reason: "nope"}, nil
		})},
		Registration{Point: pointPreDispatch, PluginID: "third", OnError: onErrorContinue, Handler: HandlerFunc(func(context.Context, Point, Payload) (Result, error) {
			sawThird = true
			return Result{Outcome: outcomeContinue}, nil
		})},
	)
	rec = &recorder{}
	_, halt, err = c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "p"}, rec.emit)
	if err != nil || halt == nil || halt.Plugin != "stop" || halt.Reason != "nope" || sawThird {
		t.Fatalf("halt = %+v err = %v sawThird = %v", halt, err, sawThird)
	}
	if rec.kinds() != "hook.rewrote:one,hook.halted:stop" {
		t.Fatalf("events = %s", rec.kinds())
	}
}

func TestChainObservationalHaltOnlyStopsLaterHandlers(t *testing.T) {
	later := false
	c := newChain(
		Registration{Point: pointRunEnd, PluginID: "stop", OnError: onErrorContinue, Handler: HandlerFunc(func(context.Context, Point, Payload) (Result, error) {
			return Result{Outcome: outcomeHalt, Reason: "x"}, nil
		})},
		Registration{Point: pointRunEnd, PluginID: "later", OnError: onErrorContinue, Handler: HandlerFunc(func(context.Context, Point, Payload) (Result, error) {
			later = true
			return Result{Outcome: outcomeContinue}, nil
		})},
	)
	_, halt, err := c.Run(context.Background(), pointRunEnd, Payload{}, nil)
	if halt != nil || err != nil || later {
		t.Fatalf("halt %v err %v later %v", halt, err, later)
	}
}

func TestChainRejectsReadOnlyRewriteAndFollowsOnError(t *testing.T) {
	bad := HandlerFunc(func(context.Context, Point, Payload) (Result, error) {
		return Result{Outcome: outcomeContinue, Payload: Payload{"verb": "task"}}, nil
	})
	failing := HandlerFunc(func(context.Context, Point, Payload) (Result, error) { return Result{}, errors.New("down") })
	panicking := HandlerFunc(func(context.Context, Point, Payload) (Result, error) { panic("oops") })
	for i, h := range []Handler{bad, failing, panicking} {
		rec := &recorder{}
		c := newChain(Registration{Point: pointPreDispatch, PluginID: "x", OnError: onErrorContinue, Handler: h})
		out, halt, err := c.Run(context.Background(), pointPreDispatch, Payload{"verb": "decide", "prompt": "p"}, rec.emit)
		if err != nil || halt != nil || out["verb"] != "decide" || rec.kinds() != "hook.failed:x" {
			t.Fatalf("continue: out %v halt %v err %v events %s", out, halt, err, rec.kinds())
		}
		if msg := rec.events[0].Payload.Error; i == 2 && !strings.Contains(msg, "plugin x, hook "+string(pointPreDispatch)+": the hook handler panicked: oops (a kitsoki bug: please report it") {
			t.Fatalf("a hook's panic: %s", msg)
		}
		rec = &recorder{}
		c = newChain(Registration{Point: pointPreDispatch, PluginID: "x", OnError: onErrorVeto, Handler: h})
		_, halt, _ = c.Run(context.Background(), pointPreDispatch, Payload{"verb": "decide", "prompt": "p"}, rec.emit)
		if halt == nil || !strings.Contains(halt.Reason, "on_error is veto") || rec.kinds() != "hook.failed:x,hook.halted:x" {
			t.Fatalf("veto: halt %+v events %s", halt, rec.kinds())
		}
	}
	if !strings.Contains(func() string {
		rec := &recorder{}
		c := newChain(Registration{Point: pointPreDispatch, PluginID: "x", OnError: onErrorContinue, Handler: bad})
		_, _, _ = c.Run(context.Background(), pointPreDispatch, Payload{"verb": "decide"}, rec.emit)
		return rec.events[0].Payload.Error
	}(), `rewrote "verb", which is read-only`) {
		t.Fatal("read-only rewrite error is not explained")
	}
}

// A rewrite of the wrong JSON type is named in JSON's words, never Go's
// (a hook's answer decodes to float64 and map[string]interface {}).
func TestRewriteOfWrongTypeNamesJSONTypes(t *testing.T) {
	for _, c := range []struct {
		payload Payload
		want    string
	}{
		{Payload{"prompt": 3.0}, "hook rewrote prompt to a number; it must be a string"},
		{Payload{"prompt": map[string]any{}}, "hook rewrote prompt to an object; it must be a string"},
		{Payload{"with": []any{"a"}}, "hook rewrote with to a list; it must be an object"},
		{Payload{"with": true}, "hook rewrote with to true/false; it must be an object"},
	} {
		rec := &recorder{}
		h := HandlerFunc(func(context.Context, Point, Payload) (Result, error) {
			return Result{Outcome: outcomeContinue, Payload: c.payload}, nil
		})
		ch := newChain(Registration{Point: pointPreDispatch, PluginID: "x", OnError: onErrorContinue, Handler: h})
		_, _, _ = ch.Run(context.Background(), pointPreDispatch, Payload{"prompt": "p", "with": map[string]any{}}, rec.emit)
		if len(rec.events) != 1 || rec.events[0].Payload.Error != c.want {
			t.Errorf("%v: events %+v, want the error %q", c.payload, rec.events, c.want)
		}
	}
}

func TestHandlerGetsACopy(t *testing.T) {
	c := newChain(Registration{Point: pointPreDispatch, PluginID: "mut", OnError: onErrorContinue, Handler: HandlerFunc(func(_ context.Context, _ Point, p Payload) (Result, error) {
		p["with"].(map[string]any)["k"] = "changed in place"
		return Result{Outcome: outcomeContinue}, nil
	})})
	in := Payload{"with": map[string]any{"k": "v"}}
	out, _, _ := c.Run(context.Background(), pointPreDispatch, in, nil)
	if out["with"].(map[string]any)["k"] != "v" || in["with"].(map[string]any)["k"] != "v" {
		t.Fatal("an in-place mutation leaked past the hook")
	}
}

func TestRedactAndBudget(t *testing.T) {
	p, err := parseProfile("p.yaml", []byte("config:\n  redact: {patterns: [\"sk-[a-z0-9]{6,}\"], env: [SECRET_X]}\n  budget: {max_cost_usd: 0.5, max_tokens: 100}\n"), recost.NewBudget())
	if err != nil {
		t.Fatal(err)
	}
	a := assembleWithSecret(t, "config:\n  redact: {patterns: [\"sk-[a-z0-9]{6,}\"], env: [SECRET_X]}\n  budget: {max_cost_usd: 0.5, max_tokens: 100}\n")
	_ = p
	c := a.NewChain()
	defer c.Close()
	rec := &recorder{}
	out, halt, err := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "key sk-abcdef123 pw hunter2hunter2", "with": map[string]any{"note": "hunter2hunter2"}}, rec.emit)
	if err != nil || halt != nil {
		t.Fatal(err, halt)
	}
	if out["prompt"] != "key [redacted] pw [redacted:SECRET_X]" || out["with"].(map[string]any)["note"] != "[redacted:SECRET_X]" {
		t.Fatalf("redacted = %v", out)
	}
	// budget: 0.3 + 0.3 passes 0.5; the next call halts
	for i := range 2 {
		if _, halt, _ := c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "x"}, nil); halt != nil {
			t.Fatalf("call %d halted early: %v", i, halt)
		}
		_, _, _ = c.Run(context.Background(), pointPostReturn, Payload{"meta": map[string]any{"cost_usd": 0.3}}, nil)
	}
	_, halt, _ = c.Run(context.Background(), pointPreDispatch, Payload{"prompt": "x"}, nil)
	if halt == nil || halt.Plugin != idBudget || !strings.Contains(halt.Reason, "max_cost_usd") {
		t.Fatalf("budget did not halt: %+v", halt)
	}
	// a fresh chain is a fresh run
	c2 := a.NewChain()
	defer c2.Close()
	_, _, _ = c2.Run(context.Background(), pointPostReturn, Payload{"meta": map[string]any{"usage": map[string]any{"input_tokens": int64(60), "output_tokens": float64(50)}}}, nil)
	_, halt, _ = c2.Run(context.Background(), pointPreDispatch, Payload{"prompt": "x"}, nil)
	if halt == nil || !strings.Contains(halt.Reason, "110 reported tokens") {
		t.Fatalf("token budget: %+v", halt)
	}
}

func TestHostPreCallAndRunPoints(t *testing.T) {
	var seen []string
	c := newChain(
		Registration{Point: pointHostPreCall, PluginID: "args", OnError: onErrorContinue, Handler: HandlerFunc(func(_ context.Context, _ Point, p Payload) (Result, error) {
			a := p["args"].(map[string]any)
			a["dry_run"] = true
			return Result{Outcome: outcomeContinue, Payload: Payload{"args": a}}, nil
		})},
		Registration{Point: pointHostPreCall, PluginID: "deny", OnError: onErrorContinue, Handler: HandlerFunc(func(_ context.Context, _ Point, p Payload) (Result, error) {
			if p["handler"] == "host.run" && p["args"].(map[string]any)["cmd"] == "rm" {
				return Result{Outcome: outcomeHalt, Reason: "rm is not allowed"}, nil
			}
			return Result{Outcome: outcomeContinue}, nil
		})},
		Registration{Point: pointRunStart, PluginID: "obs", OnError: onErrorContinue, Handler: HandlerFunc(func(_ context.Context, p Point, _ Payload) (Result, error) {
			seen = append(seen, string(p))
			return Result{Outcome: outcomeContinue}, nil
		})},
		Registration{Point: pointRunEnd, PluginID: "obs", OnError: onErrorContinue, Handler: HandlerFunc(func(_ context.Context, p Point, pl Payload) (Result, error) {
			seen = append(seen, string(p)+":"+pl["outcome"].(string))
			return Result{Outcome: outcomeHalt}, nil // observational: no effect
		})},
	)
	var kinds []string
	emit := func(k string, _ any) error { kinds = append(kinds, k); return nil }
	args, err := c.HostPreCall(context.Background(), "host.run", map[string]any{"cmd": "ls"}, emit)
	if err != nil || args["dry_run"] != true || args["cmd"] != "ls" {
		t.Fatalf("args %v err %v", args, err)
	}
	_, err = c.HostPreCall(context.Background(), "host.run", map[string]any{"cmd": "rm"}, emit)
	var h *Halt
	if !errors.As(err, &h) || h.Plugin != "deny" || !strings.Contains(err.Error(), "rm is not allowed") {
		t.Fatalf("err = %v", err)
	}
	if err := c.RunStart(context.Background(), Payload{}, emit); err != nil {
		t.Fatal(err)
	}
	if err := c.RunEnd(context.Background(), Payload{"outcome": "terminal"}, emit); err != nil {
		t.Fatal(err)
	}
	if strings.Join(seen, ",") != "run/start,run/end:terminal" {
		t.Fatalf("seen = %v", seen)
	}
	if strings.Join(kinds, ",") != "hook.rewrote,hook.rewrote,hook.halted,hook.halted" {
		t.Fatalf("kinds = %v", kinds)
	}
}

// FuzzParseResult: any answer line of a hook process: a result that
// decodes writes back to JSON that decodes to the same result, and the
// chain's check of it at each point either passes or says what is wrong
// in JSON's terms (never a Go type such as map[string]interface {}) on
// one line.
func FuzzParseResult(f *testing.F) {
	for _, s := range []string{`{"outcome":"continue"}`, `{"outcome":"halt","reason":"x"}`, `{"outcome":"continue","payload":{"prompt":"p","n":12345678901234567}}`, `not json`, `{} {}`, `{"payload":[1]}`,
		`{"outcome":"continue","payload":{"prompt":{"a":1}}}`, `{"outcome":"continue","payload":{"with":[1]}}`, `{"outcome":"continue","payload":{"alias":1.5}}`, `{"outcome":"continue","payload":{"alias":"x\ny"}}`} {
		f.Add([]byte(s))
	}
	cur := Payload{"prompt": "p", "alias": "agent.a", "with": map[string]any{}, "args": map[string]any{}}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := parseAnswer(b)
		if err != nil {
			return
		}
		line, err := json.Marshal(a.Result)
		if err != nil {
			t.Fatalf("a decoded result does not encode: %v", err)
		}
		again, err := parseAnswer(line)
		if err != nil {
			t.Fatalf("%s does not decode again: %v", line, err)
		}
		if line2, _ := json.Marshal(again.Result); !bytes.Equal(line, line2) {
			t.Fatalf("round trip: %s, then %s", line, line2)
		}
		for _, p := range []Point{pointPreDispatch, pointPostReturn, pointHostPreCall, pointRunStart} {
			err := checkResult(p, cur, a.Result)
			if err == nil {
				continue
			}
			msg := err.Error()
			if n := gotype.Named(msg, b); n != "" {
				t.Fatalf("%s at %s: %q names a Go type (%s)", b, p, msg, n)
			}
			if strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("%s at %s: %q is more than one line", b, p, msg)
			}
		}
	})
}
