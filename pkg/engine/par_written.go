package engine

import (
	"slices"
	"strings"
)

// readBackWritten rests the machine, at the start of a turn, on the
// configuration upstream reads back from the path it wrote when a receiver
// put a parallel state's encoding in a place (strayAt): the path split at
// "|" after its first "#", so the encoding's leaves become entries of
// their own beside the places' (p#p#p.ra.a1|p.rb.b1|p.ra.a2: a region
// may hold two, an entry such as p#p.ra.a1 handles nothing), kept until
// the configuration is next read back, as a flow start path is
// (conformance par-emit-root-next, par-start-two-leaves,
// par-start-unknown-region). The legacy path reads it sorted; the
// orchestrator keeps it as written.
func (r *runner) readBackWritten() {
	pc := r.par
	if pc == nil || len(pc.enc) == 0 {
		return
	}
	spec := pc.encode()
	_, rest, _ := strings.Cut(spec, "#")
	entries := strings.Split(rest, "|")
	if r.so.MachineOnly {
		slices.Sort(entries)
	}
	np := &parConf{root: pc.root}
	for _, e := range entries {
		st := r.m.States[e]
		if st == nil || !st.within(pc.root) {
			if st = r.unknownLeaf(e, pc.root); st == nil {
				st = outsideLeaf(e, pc.root)
			}
		}
		np.leaves = append(np.leaves, st)
	}
	np.placeListed()
	if !r.so.MachineOnly {
		np.label = spec
	}
	r.par, r.cur = np, np.leaves[0]
}
