package engine

import (
	"reflect"
	"strings"
	"testing"
)

// Rule-by-rule checks of story-format.md §4–§6 not covered elsewhere, each
// against testdata/semantics.

func TestInitialDescentNestedAndTemplated(t *testing.T) {
	_, sink := runWant(t, "semantics", "", Options{}, OutcomeRested, "outer.mid.y")
	if want := []string{"outer", "outer.mid", "outer.mid.y"}; !reflect.DeepEqual(sink.entered(), want) {
		t.Errorf("entered %v, want %v", sink.entered(), want)
	}
	w, err := InitWorld(compileStory(t, "semantics").World, nil, []string{"pick=x"})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := runStory(t, "semantics", "", Options{World: w})
	wantOutcome(t, res, OutcomeRested, "outer.mid.x")
}

func TestTargetFormsMore(t *testing.T) {
	cases := []struct {
		name, intent, state, outcome string
	}{
		// a bare name inside a compound is top-level, not the sibling outer.mid.b
		{"bare name is absolute", "sib", "b", OutcomeTerminal},
		{"../../ pops two segments", "deep", "outer.c", OutcomeRested},
		{"an arm without when wins", "noarm", "outer.c", OutcomeRested},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runWant(t, "semantics", "", Options{Inputs: []Input{in(c.intent)}}, c.outcome, c.state)
		})
	}
}

func TestEmptyTargetStaysWithoutOnEnter(t *testing.T) {
	res, _ := runWant(t, "semantics", "", Options{Inputs: []Input{in("quiet")}}, OutcomeRested, "outer.mid.y")
	if res.World["after"] != "stayed" || !sameNum(res.World["ys"], 1) {
		t.Errorf("after = %v ys = %v, want stayed and 1 (no on_enter re-run)", res.World["after"], res.World["ys"])
	}
}

func TestGuardHintNamesRejection(t *testing.T) {
	res, sink := runStory(t, "semantics", "", Options{Inputs: []Input{in("hinted")}})
	if res.Outcome != OutcomeFailed || !strings.Contains(res.Err.Error(), "pick must be zzz") {
		t.Fatalf("outcome %s err %v, want the guard_hint", res.Outcome, res.Err)
	}
	rej := sink.kinds(KindValidationFailed)
	if len(rej) != 1 || payloadMap(t, rej[0].Payload)["guard_hint"] != "pick must be zzz" || payloadMap(t, rej[0].Payload)["code"] != CodeGuardFailed {
		t.Errorf("validation_failed = %v", rej)
	}
}

func TestLeafWildcardBeatsAncestorIntent(t *testing.T) {
	w, _ := InitWorld(compileStory(t, "semantics").World, nil, []string{"pick=x"})
	res, _ := runWant(t, "semantics", "", Options{World: w, Inputs: []Input{in("named")}}, OutcomeRested, "outer.mid.x")
	wantWorld(t, res.World, "seen", "leaf-wildcard", "the leaf's \"*\" must be tried before an ancestor's named handler")
	// from y (no wildcard, no handler) the ancestor's named handler runs
	res, _ = runStory(t, "semantics", "", Options{Inputs: []Input{in("named")}})
	wantOutcome(t, res, OutcomeTerminal, "b")
	wantWorld(t, res.World, "seen", "ancestor-named", "")
}

func TestEffectWhenErrorAbortsChain(t *testing.T) {
	res, _ := runStory(t, "semantics", "badwhen", Options{})
	if res.Outcome != OutcomeFailed || res.Err == nil {
		t.Fatalf("outcome %s err %v: a non-bool when must fail the run", res.Outcome, res.Err)
	}
	if res.World["after"] != "" {
		t.Errorf("the chain continued after a when error: after = %v", res.World["after"])
	}
}

func TestSayPongoAndWithRecursion(t *testing.T) {
	res, sink := runWant(t, "semantics", "talk", Options{}, OutcomeTerminal, "talk")
	says := sink.kinds(KindSay)
	if len(says) != 1 || payloadMap(t, says[0].Payload)["text"] != "none / dflt / Y" {
		t.Errorf("say = %v", says)
	}
	// with: strings inside lists (and nested lists) are templates; {{ 1 + 2 }} alone is typed
	args := payloadMap(t, sink.kinds(KindHarnessCalled)[0].Payload)["args"].(map[string]any)
	if !reflect.DeepEqual(args["args"], []any{"y", float64(3), []any{"y"}}) {
		t.Errorf("with.args = %#v", args["args"])
	}
	if res.World["both"] != "y-"+toString(res.World["out"]) || res.World["both"] == "y-" {
		t.Errorf("bind template with world and result roots: both = %v out = %v", res.World["both"], res.World["out"])
	}
}

func TestEmitWhenDeferredAndSharedEntry(t *testing.T) {
	// a pure emit_intent's when: is evaluated after the binds land
	_, sink := runWant(t, "semantics", "emitter1", Options{}, OutcomeTerminal, "b")
	if len(sink.kinds(KindEmitIntent)) != 1 {
		t.Errorf("want one emit")
	}
	// set and emit_intent in one entry: both apply
	res, _ := runStory(t, "semantics", "emitter2", Options{})
	wantOutcome(t, res, OutcomeTerminal, "b")
	wantWorld(t, res.World, "seen", "shared", "")
}

func TestHostErrorShape(t *testing.T) {
	res, _ := runStory(t, "onerror", "", Options{})
	he, _ := res.World["host_error"].(map[string]any)
	if he["message"] != res.World["last_error"] || he["message"] == "" || he["namespace"] != "host.run" {
		t.Errorf("host_error = %v, last_error = %v", he, res.World["last_error"])
	}
}

// story-format §3.3: set coerces string results to the declared type for
// bool, int and float in its own turn, but journals the string, so the
// world read back after the turn holds the string (upstream, replay.go);
// with Strict the coerced value stays.
func TestSetCoercesToDeclaredType(t *testing.T) {
	res, _ := runWant(t, "semantics", "coerce", Options{}, OutcomeTerminal, "coerce")
	want := map[string]any{"ys": "10", "flag": "true", "ratio": "2.5", "label": 7.0, "out": "12"}
	for k, v := range want {
		if got := res.World[k]; !reflect.DeepEqual(got, v) {
			t.Errorf("world.%s = %#v (%T), want %#v (%T)", k, got, got, v, v)
		}
	}
	res, _ = runWant(t, "semantics", "coerce", Options{Strict: true}, OutcomeTerminal, "coerce")
	want = map[string]any{"ys": int64(10), "flag": true, "ratio": 2.5, "label": 7.0, "out": "12"}
	for k, v := range want {
		if got := res.World[k]; !reflect.DeepEqual(got, v) {
			t.Errorf("strict: world.%s = %#v (%T), want %#v (%T)", k, got, got, v, v)
		}
	}
}

// story-format §6.2: {{ if }}/{{ range }} with .field, maps as JSON, nil as
// "", and a bare expression without {{ }} is a literal.
func TestSetTemplateForms(t *testing.T) {
	res, _ := runWant(t, "semantics", "tmpls", Options{}, OutcomeTerminal, "tmpls")
	want := map[string]any{"t_if": "yes", "t_range": "[1][2]", "t_json": `m={"k":"v"}`, "t_nil": "<>", "t_bare": "world.pick"}
	for k, v := range want {
		if got := res.World[k]; got != v {
			t.Errorf("world.%s = %#v, want %#v", k, got, v)
		}
	}
}

// say renders with run.turn but, as upstream's machine renders it
// (conformance values-render-env), without the session's state: state.path and
// state.description are empty there (views have them); autoescape off.
func TestSayStateContext(t *testing.T) {
	_, sink := runWant(t, "semantics", "described", Options{}, OutcomeTerminal, "described")
	says := sink.kinds(KindSay)
	if len(says) != 2 || payloadMap(t, says[0].Payload)["text"] != ":  (turn 0)" {
		t.Fatalf("say = %v", says)
	}
	// autoescape is off
	if got := payloadMap(t, says[1].Payload)["text"]; got != "<a & 'b'>" {
		t.Errorf("say = %q, want it unescaped", got)
	}
}

// An emit_intent in transition effects fires after the target is entered,
// at the then-current state (here outer.c, whose ancestor handles named).
func TestTransitionEmitFiresAtTarget(t *testing.T) {
	res, _ := runWant(t, "semantics", "hop", Options{Inputs: []Input{in("go_b")}}, OutcomeTerminal, "b")
	wantWorld(t, res.World, "seen", "ancestor-named", "")
}

// story-format §5.2: only the first of set > increment > say > invoke
// applies per entry.
func TestOnlyFirstEffectKindApplies(t *testing.T) {
	res, sink := runWant(t, "semantics", "firstonly", Options{}, OutcomeTerminal, "firstonly")
	if !sameNum(res.World["ys"], 5) {
		t.Errorf("ys = %v, want 5", res.World["ys"])
	}
	says := sink.kinds(KindSay)
	if len(says) != 1 || payloadMap(t, says[0].Payload)["text"] != "say-and-invoke" {
		t.Errorf("say = %v: {increment, say} must not say, {say, invoke} must say", says)
	}
	if n := len(sink.kinds(KindHarnessCalled)); n != 0 || res.World["out"] != "" {
		t.Errorf("{say, invoke} invoked (%d calls, out %v)", n, res.World["out"])
	}
}
