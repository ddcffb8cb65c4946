package engine

import "strings"

// A move out of a parallel configuration that lands in one (conformance
// par-leave-into-parallel) writes upstream's machine.state_entered names:
// the dotted prefixes of the landing's encoded configuration
// ("z", "z.zd#z", ..., "z.zd#z.zd.za.z1|z.zd.zb.z2"), less those shared
// with the parallel root that was left. expect_events and
// expect_events_exact see them.

// holdEntered starts holding the state_entered events of a move.
func (r *runner) holdEntered() {
	r.t.entered = &[]string{}
}

// releaseEntered writes the held events: upstream's names when the move
// landed in a parallel configuration after leaving from, else the states
// entered, in order.
func (r *runner) releaseEntered(from *State) error {
	held := *r.t.entered
	r.t.entered = nil
	if r.par != nil && from != nil {
		held = encodedPrefixes(from.Path, r.par.encode())
	}
	for _, p := range held {
		if err := r.emitState(KindStateEntered, p); err != nil {
			return err
		}
	}
	return nil
}

// encodedPrefixes splits enc at every "." and returns the joined prefixes
// past the leading segments it shares with from.
func encodedPrefixes(from, enc string) []string {
	segs, fs := strings.Split(enc, "."), strings.Split(from, ".")
	k := 0
	for k < len(segs) && k < len(fs) && segs[k] == fs[k] {
		k++
	}
	out := make([]string, 0, len(segs)-k)
	for i := k; i < len(segs); i++ {
		out = append(out, strings.Join(segs[:i+1], "."))
	}
	return out
}
