package engine

import (
	"slices"
	"testing"
)

func heldKinds(evs []Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Kind+":"+e.StatePath)
	}
	return out
}

// A walk's events come back as upstream writes them: the transition, the
// effect events in the order written, then the moves in the order written
// (a region's move, then another's).
func TestHeldWalkOrder(t *testing.T) {
	var h heldWalk
	h.start()
	for _, ev := range []Event{
		{Kind: KindSay, StatePath: "a"},
		{Kind: KindStateExited, StatePath: "p.r.a"},
		{Kind: KindWorldUpdate, StatePath: "a"},
		{Kind: KindStateEntered, StatePath: "p.r.b"},
		{Kind: KindSay, StatePath: "b"},
		{Kind: KindStateExited, StatePath: "p.q.x"},
		{Kind: KindStateEntered, StatePath: "p.q.y"},
	} {
		if !h.add(ev) {
			t.Fatalf("%s not held while holding", ev.Kind)
		}
	}
	h.setHead(Event{Kind: KindTransition, StatePath: "a"})
	h.stop()
	if h.add(Event{Kind: KindSay}) {
		t.Fatal("held after stop")
	}
	want := []string{"machine.transition:a", "machine.say:a", "world.update:a", "machine.say:b",
		"machine.state_exited:p.r.a", "machine.state_entered:p.r.b", "machine.state_exited:p.q.x", "machine.state_entered:p.q.y"}
	if got := heldKinds(h.take()); !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if got := h.take(); len(got) != 0 {
		t.Errorf("take after take = %v, want nothing", got)
	}
}

// Without a transition (a walk that failed before its target was
// resolved) the held events come back alone, in the same order.
func TestHeldWalkWithoutHead(t *testing.T) {
	var h heldWalk
	if h.add(Event{Kind: KindSay}) {
		t.Fatal("the zero value holds")
	}
	h.start()
	h.add(Event{Kind: KindStateEntered, StatePath: "x"})
	h.add(Event{Kind: KindSay, StatePath: "x"})
	h.stop()
	if got, want := heldKinds(h.take()), []string{"machine.say:x", "machine.state_entered:x"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}
