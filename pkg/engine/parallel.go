package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// maxParallelEmitDepth caps emit: propagation between regions
// (story-runtime §3.5).
const maxParallelEmitDepth = 24

// parConf is an active parallel configuration: the parallel root and one
// leaf per region, sorted by path (story-runtime §3.2).
type parConf struct {
	root   *State
	leaves []*State
	hop    bool // an emit hop the root handles is being taken (flatHop)
	// label is the start state as a fixture wrote it, the state path until
	// the configuration changes (conformance par-start-verbatim)
	label string
	// listed is the path placeParallel read this configuration from,
	// until it changes (resortListed)
	listed string
	// at is the leaf in each region's place: its own, or one a
	// cross-region move put there; one state may stand in two places
	// (conformance par-cross-receiver-slot, emit-place-order)
	at map[*State]*State
	// strays: a receiver left the root this turn and its target stands in
	// its region's place until the configuration is read back (conformance
	// par-emit-leave); the moves after keep it
	strays bool
	// enc is the encoding upstream writes for a parallel state strayAt
	// put in a place, read back at the next turn (readBackWritten)
	enc map[*State]string
}

func (p *parConf) clone() *parConf {
	if p == nil {
		return nil
	}
	return &parConf{root: p.root, leaves: slices.Clone(p.leaves), label: p.label, listed: p.listed, at: maps.Clone(p.at), strays: p.strays, enc: maps.Clone(p.enc)}
}

// placeOf is the region whose place leaf l holds: its own region's when
// it stands there too.
func (p *parConf) placeOf(l *State) *State {
	own := p.regionOf(l)
	if p.at[own] == l {
		return own
	}
	for _, reg := range p.root.regions() {
		if p.at[reg] == l {
			return reg
		}
	}
	return own
}

// inPlace is the leaf in region reg's place (an emit: reaching reg goes
// to it), whichever region it belongs to; nil when the place is empty.
func (p *parConf) inPlace(reg *State) *State {
	if l := p.at[reg]; l != nil {
		return l
	}
	// a leaf of reg standing in another region's place (a cross-region
	// move put it there) is that place's: reg's is empty (conformance
	// par-cross-emit-empty-place)
	if l := p.leafIn(reg); l != nil && p.placeOf(l) == reg {
		return l
	}
	return nil
}

// encode is "<root>#<leaf>|<leaf>...".
func (p *parConf) encode() string {
	if p.label != "" {
		return p.label
	}
	parts := make([]string, len(p.leaves))
	for i, l := range p.leaves {
		parts[i] = l.Path
		if e, ok := p.enc[l]; ok {
			parts[i] = e
		}
	}
	// sorted: a start path's leaves stay in the order listed (placeListed)
	slices.Sort(parts)
	return p.root.Path + "#" + strings.Join(parts, "|")
}

// regionOf is the child of the root that contains s.
func (p *parConf) regionOf(s *State) *State {
	for x := s; x != nil; x = x.Parent {
		if x.Parent == p.root {
			return x
		}
	}
	return nil
}

// leafIn is the active leaf of region reg.
func (p *parConf) leafIn(reg *State) *State {
	if l := p.at[reg]; l == reg || l != nil && l.within(reg) {
		return l // the leaf in the region's own place
	}
	for _, l := range p.leaves {
		if l == reg || l.within(reg) {
			return l
		}
	}
	return nil
}

// replace puts leaf in old's place (the leaves stay sorted by path), even
// when leaf's region already has a leaf there: a cross-region target
// (crossRegion).
func (p *parConf) replace(old, leaf *State) {
	p.replaceAt(p.placeOf(old), old, leaf)
}

// replaceAt puts leaf in place of old, the leaf in region place's place.
func (p *parConf) replaceAt(place, old, leaf *State) {
	p.label, p.listed = "", ""
	if !p.strays {
		p.leaves = slices.DeleteFunc(p.leaves, func(l *State) bool { return l != old && !p.inRegion(l) })
	}
	i := slices.Index(p.leaves, old)
	if i < 0 {
		return
	}
	p.leaves[i] = leaf
	sortByPath(p.leaves)
	if place != nil {
		if p.at == nil {
			p.at = map[*State]*State{}
		}
		p.at[place] = leaf
	}
}

// inRegion reports whether l lies in one of the root's regions; an
// outsideLeaf leaves at the configuration's first change (conformance
// par-start-unknown-region).
func (p *parConf) inRegion(l *State) bool {
	return slices.Contains(p.root.Children, p.regionOf(l))
}

// set makes leaf the active leaf of its region, in the region's own place.
func (p *parConf) set(leaf *State) {
	p.label, p.listed = "", ""
	reg := p.regionOf(leaf)
	out := p.leaves[:0]
	for _, l := range p.leaves {
		if p.inRegion(l) && p.regionOf(l) != reg || p.strays && !p.inRegion(l) {
			out = append(out, l)
		}
	}
	for place, l := range p.at {
		if p.regionOf(l) == reg {
			delete(p.at, place)
		}
	}
	out = append(out, leaf)
	sortByPath(out)
	p.leaves = out
	if reg == nil {
		return
	}
	if p.at == nil {
		p.at = map[*State]*State{}
	}
	p.at[reg] = leaf
}

func sortByPath(leaves []*State) {
	slices.SortFunc(leaves, func(a, b *State) int { return strings.Compare(a.Path, b.Path) })
}

// decoded is the configuration as upstream reads its encoding back when
// an intent fires in it: one leaf per region, the later of two
// (conformance par-cross-decoded).
func (p *parConf) decoded() []*State {
	return p.reread().leaves
}

// reread is the configuration decoded, each leaf in its own region's
// place: a leaf a cross-region move put in another region's place, and
// that place, are gone.
func (p *parConf) reread() *parConf {
	d := &parConf{root: p.root}
	for _, l := range p.leaves {
		if d.inRegion(l) {
			d.set(l)
		}
	}
	return d
}

// within reports whether s is a strict descendant of a.
func (s *State) within(a *State) bool {
	for x := s.Parent; x != nil; x = x.Parent {
		if x == a {
			return true
		}
	}
	return false
}

// regions are a parallel state's children sorted by name.
func (s *State) regions() []*State {
	return slices.SortedFunc(slices.Values(s.Children), func(a, b *State) int { return strings.Compare(a.Name, b.Name) })
}

// fireParallel handles a user intent in a parallel state (story-runtime
// §3.4): regions are tried in order, the first whose leaf (or an ancestor,
// the root and above included) has a winning arm takes the transition.
func (r *runner) fireParallel(ctx context.Context, intent string, given map[string]any, st *step) error {
	pc := r.par
	r.slots = templateSlots(given)
	env := r.env(r.slots, nil)
	hint := ""
	// no bare import alias is resolved here (conformance import-par-bare-alias)
	for _, leaf := range pc.decoded() {
		r.cur = leaf
		arms, owner := lookupFrom(r.cur, intent)
		if arms == nil {
			continue
		}
		arm, h, err := r.pickArm(arms, intent, env)
		if err != nil {
			return err
		}
		if arm == nil {
			if hint == "" {
				hint = h
			}
			continue
		}
		return r.takeParallel(ctx, intent, given, arm, owner, leaf, st)
	}
	r.cur = pc.leaves[0]
	return &Rejection{Code: CodeGuardFailed, Intent: intent, State: pc.root.Path, GuardHint: hint,
		Message: fmt.Sprintf("no transition matched for intent %q in parallel state %q", intent, pc.root.Path)}
}

// takeParallel applies a winning regional arm: its effects, the region's
// own move, then the emit: propagation to the other regions (story-runtime
// §3.5, runtime-probes p9; docs/compat/engine.md "emit: propagation").
func (r *runner) takeParallel(ctx context.Context, intent string, slots map[string]any, arm *Transition, owner, leaf *State, st *step) error {
	if err := r.emit(KindIntentAccepted, map[string]any{"intent": r.t.acceptedName(intent), "slots": slots}); err != nil {
		return err
	}
	if arm.View != nil {
		r.t.transView = arm.View
	}
	mine, err := r.holdWalk(st, func() error { return r.walkParallel(ctx, intent, slots, arm, owner, leaf, st) })
	if err != nil {
		return err
	}
	if arm.View != nil && (r.par == nil || owner == r.par.root) {
		r.t.transAt = "" // the view renders where the turn rests
	}
	if r.par != nil {
		r.cur = r.par.leaves[0]
	}
	// a user turn taken in a parallel configuration fires none of its
	// emit_intent effects (conformance par-emit)
	for _, e := range mine {
		r.note(Note{Kind: "emit", State: r.statePath(), Text: "emit_intent " + e.name + " dropped: a turn taken in a parallel state fires no emits"})
	}
	return nil
}

// walkParallel is takeParallel's walk, with the events held.
func (r *runner) walkParallel(ctx context.Context, intent string, slots map[string]any, arm *Transition, owner, leaf *State, st *step) error {
	// the machine reads the configuration back: a start path kept as
	// written is re-encoded sorted, in the transition's from too
	r.par.label, r.par.listed = "", ""
	from := r.statePath()
	// and its places: an emit: reaches each leaf read back once, in its
	// own region's place (conformance par-cross-decoded-places)
	d := r.par.reread()
	r.par.leaves, r.par.at = d.leaves, d.at
	res, unpin, err := r.startArm(ctx, owner, arm, false, "intent", intent, st)
	if err != nil {
		return err
	}
	defer unpin()
	tr := r.holdTransition(from, intent, slots, res, 0)
	if arm.View != nil { // conformance par-transition-view, par-transition-view-menu
		r.t.transAt = r.transViewLeaf(res, leaf)
	}
	reg := r.firingRegion(leaf, owner)
	inside := !res.stay && res.state != nil && res.state.within(r.par.root)
	if inside && reg != nil && r.par.regionOf(res.state) != reg {
		return r.crossRegion(ctx, arm, leaf, res.state, reg, st, tr)
	}
	var old, pre *State // a target inside the root moves its region
	if inside {
		old = r.par.leafIn(r.par.regionOf(res.state))
		if reg != nil {
			old = leaf // the firing leaf (one of two after a crossRegion)
		}
		if pre, err = r.initialLeaf(res.state); err != nil {
			return err
		}
		r.par.set(pre)
	}
	// its own move before the regions its emit: reaches (conformance
	// par-own-enter-before-receivers); an arm that leaves delivers none
	// (par-emit-order y.yaml, v.yaml)
	if inside && r.par != nil {
		if err := r.moveRegionFrom(ctx, old, res.state, pre, st); err != nil {
			return err
		}
	}
	if res.stay || inside {
		if err := r.propagate(ctx, armEmits(arm), reg, st, 1); err != nil {
			return err
		}
	}
	switch {
	case inside: // moved above
	case !res.stay && r.par != nil:
		r.cur = leaf
		if err := r.goTo(ctx, res, st); err != nil {
			return err
		}
	}
	tr["to"] = r.statePath()
	return nil
}

// transViewLeaf is the state an arm's view inside the configuration sees:
// its target's initial leaf, the firing leaf for a stay, none for the
// root itself (conformance par-transition-view-root).
func (r *runner) transViewLeaf(res target, leaf *State) string {
	if !res.stay && res.state == r.par.root {
		return ""
	}
	if !res.stay && res.state != nil {
		if l, err := r.initialLeaf(res.state); err == nil {
			return l.Path
		}
	}
	return leaf.Path
}

// firingRegion is the region of the leaf whose walk found the handler
// owner; nil for a handler above the root: every region may receive.
func (r *runner) firingRegion(leaf, owner *State) *State {
	if r.par.hop && owner != nil && owner != r.par.root && !owner.within(r.par.root) {
		return nil
	}
	return r.par.regionOf(leaf) // conformance par-above-root-handler
}

// moveRegionFrom writes the winning region's own move from old to dst
// (exits, entries, on_enter, initial: descent) after propagation. The
// configuration already holds pre (dst's initial leaf); it takes the leaf
// the descent reaches unless a receiver has moved the region meanwhile.
func (r *runner) moveRegionFrom(ctx context.Context, old, dst, pre *State, st *step) error {
	pc := r.par
	reg := pc.regionOf(dst)
	if pre == old && pc.leafIn(reg) == old {
		// a move onto itself does nothing (conformance par-emit b.yaml,
		// region-ancestor-target, par-region-ancestor)
		if r.par != nil {
			r.cur = r.par.leaves[0]
		}
		return nil
	}
	end, err := r.swapLeaf(ctx, old, dst, st)
	if err != nil {
		return err
	}
	if r.par == pc && slices.Contains(pc.leaves, pre) { // conformance par-root-receiver
		pc.replace(pre, end)
	}
	if r.par != nil {
		r.cur = r.par.leaves[0]
	}
	return nil
}

// armEmits are the event names an arm propagates: the emit: of its effect
// entries, then the transition's emit: list (conformance emit-effects-first).
func armEmits(arm *Transition) []string {
	var out []string
	for _, e := range arm.Effects {
		if e.Event != "" {
			out = append(out, e.Event)
		}
	}
	return append(out, arm.Emits...)
}

// propagate delivers emit: events to every region's place but from's, in
// region order, each to the leaf in that place whichever region it belongs
// to (story-runtime §3.5, conformance emit-place-order); a receiver's own
// emits go out from its place once the event has reached every place
// (conformance par-emit-order).
func (r *runner) propagate(ctx context.Context, names []string, from *State, st *step, depth int) error {
	if len(names) == 0 || r.par == nil {
		return nil
	}
	if depth > maxParallelEmitDepth {
		return fmt.Errorf("parallel emit propagation exceeded max depth (%d) — check for cyclic emits", maxParallelEmitDepth)
	}
	type further struct {
		names []string
		from  *State
	}
	for _, name := range names {
		var next []further
		for _, place := range r.par.root.regions() {
			if place == from || r.par == nil {
				continue
			}
			arm, err := r.receive(ctx, name, place, st)
			if err != nil {
				return err
			}
			if arm != nil {
				next = append(next, further{armEmits(arm), place})
			}
		}
		for _, f := range next {
			if err := r.propagate(ctx, f.names, f.from, st, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// receive delivers the emit: event name to the leaf in region place's
// place: the arm it takes (nil: none) runs its effects and moves that
// leaf, in its own region or across (crossReceive).
func (r *runner) receive(ctx context.Context, name string, place *State, st *step) (*Transition, error) {
	leaf := r.par.inPlace(place)
	if leaf == nil {
		return nil, nil
	}
	r.cur = leaf
	arms, owner := lookupFrom(r.par.handlerFrom(leaf), name)
	if arms == nil {
		return nil, nil
	}
	arm, _, err := r.pickArm(arms, name, r.env(r.slots, nil))
	if arm == nil || err != nil {
		return nil, err
	}
	at := r.t.walk.mark()
	res, unpin, err := r.startArm(ctx, owner, arm, false, "emit", name, st) // conformance storymut-receiver-ancestor-stay
	if err != nil {
		return nil, err
	}
	defer unpin()
	own := r.par.regionOf(leaf)
	switch {
	case res.stay || res.state == nil:
	case res.state == own || res.state.within(own):
		err = r.moveAt(ctx, place, leaf, res.state, st)
	case !res.state.within(r.par.root):
		err = r.strayAt(ctx, place, leaf, res.state, st)
	case r.par.regionOf(res.state) != nil:
		err = r.crossReceive(ctx, place, leaf, res.state, st)
	}
	if err != nil {
		return arm, err
	}
	r.t.walk.group(at)
	return arm, nil
}

// moveAt moves leaf, the leaf in region place's place, to dst in its own
// region, the leaf the move ends on taking that place.
func (r *runner) moveAt(ctx context.Context, place, leaf, dst *State, st *step) error {
	pc := r.par
	r.cur = leaf
	end, err := r.swapLeaf(ctx, leaf, dst, st)
	if err != nil {
		return err
	}
	pc.replaceAt(place, leaf, end) // only that leaf (conformance par-emit-order u.yaml)
	r.par, r.cur = pc, end
	return nil
}

// fireAtParallelRoot dispatches an emit_intent hop while a parallel state
// is active: against the root and its ancestors only; a name nothing there
// handles is dropped (story-runtime §3.3).
func (r *runner) fireAtParallelRoot(ctx context.Context, intent string, slots map[string]any, depth int, st *step) error {
	root := r.par.root
	arms, owner := lookupFrom(root, intent)
	if arms == nil {
		r.note(Note{Kind: "emit", State: r.statePath(), Text: "emit_intent " + intent + " dropped: the parallel state " + root.Path + " has no handler for it"})
		return nil
	}
	r.slots = slots
	arm, _, err := r.pickArm(arms, intent, r.env(slots, nil))
	if err != nil {
		return err
	}
	if arm == nil {
		return r.noArmMatched(intent)
	}
	r.cur = r.par.leaves[0]
	r.par.hop = true
	err = r.take(ctx, intent, slots, arm, owner, depth, st)
	if r.par != nil {
		r.par.hop = false
	}
	return err
}

// flatHop reports whether a move to dst is an emit hop the active
// parallel root handles with a target inside it: the configuration is
// dropped and the target entered alone from the root down (conformance
// par-emit hop.yaml).
func (r *runner) flatHop(dst *State) bool {
	return r.par != nil && r.par.hop && dst != nil && dst.within(r.par.root)
}

// placeListed orders a start path's leaves as upstream's rig keeps them
// (conformance par-start-two-leaves): by region, each region's leaves in
// the order listed, so that reading the configuration back keeps the
// leaf listed last; that leaf holds its region's place.
func (p *parConf) placeListed() {
	slices.SortStableFunc(p.leaves, func(a, b *State) int {
		ra, rb := p.regionOf(a), p.regionOf(b)
		if ra != nil && ra == rb && p.inRegion(a) {
			return 0
		}
		return strings.Compare(a.Path, b.Path)
	})
	for _, l := range p.leaves {
		if p.inRegion(l) {
			if p.at == nil {
				p.at = map[*State]*State{}
			}
			p.at[p.regionOf(l)] = l
		}
	}
}
