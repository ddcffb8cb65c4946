package story

import (
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"

	"kitsoki/pkg/diag"
)

// EffectPlace is where one effect sits: item Index of List, below the
// effect at Parent or, when Parent is nil, at the top of a state, arm,
// phase or proposal. A nested place keeps the State, Intent and Arm of its
// chain's top.
type EffectPlace struct {
	Effect *Effect
	Parent *EffectPlace // the effect whose on_complete or effects list holds it
	State  *State       // the owning state (nil for phases and proposals)
	Intent string       // the transition's intent ("" outside an arc)
	Arm    int          // the transition's arm, in an arc
	List   string       // on_enter, on_exit, effect (an arc's, named effects[n]), on_complete or effects
	Index  int
	top    placeTop
	name   string // phase id or proposal name
}

type placeTop uint8

const (
	topState placeTop = iota
	topArc
	topPhase
	topProposal
)

// String names the place for messages, e.g. `state "a" on_enter[0]` or
// `state "a" intent "go" effects[1] on_complete[0]` (an arc's effects
// name no arm, as upstream's messages).
func (p *EffectPlace) String() string {
	var b strings.Builder
	p.write(&b)
	return b.String()
}

func (p *EffectPlace) write(b *strings.Builder) {
	if p.Parent != nil {
		p.Parent.write(b)
		b.WriteByte(' ')
	} else {
		switch p.top {
		case topState:
			b.WriteString("state " + strconv.Quote(p.State.Path) + " ")
		case topArc:
			// no arm index, as upstream words it (docs/compat/story-format.md)
			b.WriteString("state " + strconv.Quote(p.State.Path) + " intent " + strconv.Quote(p.Intent) + " ")
		case topPhase:
			b.WriteString("phases.graph[" + strconv.Quote(p.name) + "] ")
		case topProposal:
			b.WriteString("proposal " + strconv.Quote(p.name) + " execute ")
		}
	}
	if p.Parent == nil && p.top == topArc {
		b.WriteString("effects")
	} else {
		b.WriteString(p.List)
	}
	b.WriteByte('[')
	b.WriteString(strconv.Itoa(p.Index))
	b.WriteByte(']')
}

// Place is the state (and the intent, in an arc) the place's name starts
// with, as data; none in a phase or a proposal.
func (p *EffectPlace) Place() diag.Place {
	for p.Parent != nil {
		p = p.Parent
	}
	switch p.top {
	case topState:
		return diag.StatePlace(p.State.Path)
	case topArc:
		return diag.ArcPlace(p.State.Path, p.Intent)
	}
	return diag.Place{}
}

// InProposal reports whether the place lies in a proposal's execute.
func (p *EffectPlace) InProposal() bool {
	for p.Parent != nil {
		p = p.Parent
	}
	return p.top == topProposal
}

// Within reports whether the place lies in a list named list, its own or
// one of its parents' (e.g. "on_complete": inside a background job's chain).
func (p *EffectPlace) Within(list string) bool {
	for ; p != nil; p = p.Parent {
		if p.List == list {
			return true
		}
	}
	return false
}

// EffectWalk walks effects depth first: each effect, then its on_complete
// list, then its inline effects (InlineFirst: inline first). Nil effects
// and arms are skipped; each yielded place stays valid after the walk.
type EffectWalk struct {
	InlineFirst bool
}

// States yields the effects each of states runs itself: on_enter,
// on_exit, then each intent's arms (not its children's).
func (w EffectWalk) States(states ...*State) iter.Seq[*EffectPlace] {
	return func(yield func(*EffectPlace) bool) {
		for _, s := range states {
			if !w.list(s.OnEnter, EffectPlace{State: s, List: "on_enter"}, yield) ||
				!w.list(s.OnExit(), EffectPlace{State: s, List: "on_exit"}, yield) {
				return
			}
			for _, on := range s.On {
				for a, t := range on.Arms {
					if t != nil && !w.list(t.Effects, EffectPlace{State: s, Intent: on.Intent, Arm: a, List: "effect", top: topArc}, yield) {
						return
					}
				}
			}
		}
	}
}

// Phases yields the on_enter effects of each phases.graph node, in order.
func (w EffectWalk) Phases(ph *Phases) iter.Seq[*EffectPlace] {
	return func(yield func(*EffectPlace) bool) {
		if ph == nil {
			return
		}
		for _, id := range ph.Order {
			if !w.list(ph.Graph[id].OnEnter, EffectPlace{List: "on_enter", top: topPhase, name: id}, yield) {
				return
			}
		}
	}
}

// Proposals yields each proposal's execute on_complete effects, by name.
func (w EffectWalk) Proposals(props map[string]*Proposal) iter.Seq[*EffectPlace] {
	return func(yield func(*EffectPlace) bool) {
		for _, n := range slices.Sorted(maps.Keys(props)) {
			if ex := props[n].Execute; ex != nil && !w.list(ex.OnComplete, EffectPlace{List: "on_complete", top: topProposal, name: n}, yield) {
				return
			}
		}
	}
}

// list yields the effects of list, each placed like at (at.Index set per
// item), and the effects nested in them; false when yield stopped the walk.
func (w EffectWalk) list(list []*Effect, at EffectPlace, yield func(*EffectPlace) bool) bool {
	if len(list) == 0 {
		return true
	}
	places := make([]EffectPlace, len(list))
	for i, e := range list {
		if e == nil {
			continue
		}
		p := &places[i]
		*p = at
		p.Effect, p.Index = e, i
		if !yield(p) {
			return false
		}
		// first and second are the nested lists in walk order, with their places.
		first := EffectPlace{Parent: p, State: p.State, Intent: p.Intent, Arm: p.Arm, List: "on_complete", top: p.top, name: p.name}
		second := first
		second.List = "effects"
		firstList, secondList := e.OnComplete(), e.Effects()
		if w.InlineFirst {
			first, second, firstList, secondList = second, first, secondList, firstList
		}
		if !w.list(firstList, first, yield) || !w.list(secondList, second, yield) {
			return false
		}
	}
	return true
}
