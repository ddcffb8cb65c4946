package story

import (
	"slices"
	"testing"
)

// walkFixture is a state whose on_enter effect holds both an on_complete
// chain and an inline effects list, an on_exit effect, and an arm, plus a
// phase and a proposal.
func walkFixture() (*State, *Phases, map[string]*Proposal) {
	job := &Effect{Invoke: "job"}
	job.Extra().OnComplete = []*Effect{{Invoke: "done"}}
	job.Extra().Effects = []*Effect{{Invoke: "inline"}, nil}
	s := &State{Path: "a.b", OnEnter: []*Effect{job}}
	extra(&s.More).OnExit = []*Effect{{Invoke: "leave"}}
	s.AddOn("go", Pos{}, &Transition{Effects: []*Effect{{Invoke: "x"}, {Invoke: "y"}}}, nil)
	ph := &Phases{Order: []string{"p1"}, Graph: map[string]*PhaseNode{"p1": {OnEnter: []*Effect{{Invoke: "ph"}}}}}
	props := map[string]*Proposal{
		"b": {Execute: &ProposalExecute{OnComplete: []*Effect{{Invoke: "pb"}}}},
		"a": {Execute: &ProposalExecute{OnComplete: []*Effect{{Invoke: "pa"}}}},
		"c": {},
	}
	return s, ph, props
}

type walked struct{ invoke, place string }

func collect(seqs ...func(func(*EffectPlace) bool)) []walked {
	var out []walked
	for _, seq := range seqs {
		for p := range seq {
			out = append(out, walked{p.Effect.Invoke, p.String()})
		}
	}
	return out
}

func TestEffectWalkOrderAndPlaces(t *testing.T) {
	s, ph, props := walkFixture()
	var w EffectWalk
	got := collect(w.States(s), w.Phases(ph), w.Proposals(props))
	want := []walked{
		{"job", `state "a.b" on_enter[0]`},
		{"done", `state "a.b" on_enter[0] on_complete[0]`},
		{"inline", `state "a.b" on_enter[0] effects[0]`},
		{"leave", `state "a.b" on_exit[0]`},
		{"x", `state "a.b" intent "go" effects[0]`},
		{"y", `state "a.b" intent "go" effects[1]`},
		{"ph", `phases.graph["p1"] on_enter[0]`},
		{"pa", `proposal "a" execute on_complete[0]`},
		{"pb", `proposal "b" execute on_complete[0]`},
	}
	if !slices.Equal(got, want) {
		t.Errorf("walk:\n got %v\nwant %v", got, want)
	}

	inline := collect(EffectWalk{InlineFirst: true}.States(s))
	if inline[1].invoke != "inline" || inline[2].invoke != "done" {
		t.Errorf("InlineFirst: effects: should come before on_complete: %v", inline)
	}
	if got := collect(w.Phases(nil)); got != nil {
		t.Errorf("no phases: %v", got)
	}
}

func TestEffectPlaceFields(t *testing.T) {
	s, _, _ := walkFixture()
	var places []*EffectPlace
	for p := range (EffectWalk{}).States(s) {
		places = append(places, p)
	}
	done, arc := places[1], places[5]
	if done.Parent != places[0] || done.State != s || !done.Within("on_complete") || !done.Within("on_enter") || done.Within("effects") {
		t.Errorf("on_complete place: %+v", done)
	}
	if arc.Intent != "go" || arc.Arm != 0 || arc.Index != 1 || arc.Parent != nil || arc.Within("on_enter") {
		t.Errorf("arc place: %+v", arc)
	}
	// The places stay valid once the walk has moved on.
	if places[0].Effect.Invoke != "job" || places[2].String() != `state "a.b" on_enter[0] effects[0]` {
		t.Errorf("kept places changed: %+v %s", places[0], places[2])
	}
}

func TestEffectWalkStops(t *testing.T) {
	s, _, props := walkFixture()
	for _, seq := range []func(func(*EffectPlace) bool){(EffectWalk{}).States(s), (EffectWalk{}).Proposals(props)} {
		for n := range 4 {
			seen := 0
			for range seq {
				if seen == n {
					break
				}
				seen++
			}
			if seen != min(n, len(collect(seq))) {
				t.Errorf("break after %d effects: saw %d", n, seen)
			}
		}
	}
}
