package engine

import "strings"

// readBackWritten rests the machine, at the start of a turn, on the
// configuration upstream reads back from the path it wrote when a receiver
// put a parallel state's encoding in a place (strayAt): the path split at
// "|" after its first "#", so the encoding's leaves become entries of
// their own beside the places' (p#p#p.ra.a1|p.rb.b1|p.ra.a2: a region
// may hold two, an entry such as p#p.ra.a1 handles nothing), kept until
// the configuration is next read back, as a flow start path is
// (placeParallel; conformance par-emit-root-next, par-start-two-leaves,
// par-start-unknown-region). The legacy path reads it sorted; the
// orchestrator keeps it as written.
func (r *runner) readBackWritten() {
	pc := r.par
	if pc == nil || len(pc.enc) == 0 {
		return
	}
	spec := pc.encode()
	_, rest, _ := strings.Cut(spec, "#")
	if r.placeParallel(spec, pc.root.Path, rest, true) != nil {
		// no entry of a written path is refused (each is a state of
		// the root or an entry in no region): keep the configuration
		r.par = pc
	}
}

// allowedNext lists the intents the next turn takes: those of the
// configuration readBackWritten will rest on when a receiver wrote an
// encoding into a place this turn (a run resting there lists what
// `--intent` may fire), else allowed's.
func (r *runner) allowedNext() []string {
	if r.par == nil || len(r.par.enc) == 0 {
		return r.allowed()
	}
	par, cur := r.par, r.cur
	r.par = par.clone()
	r.readBackWritten()
	out := r.allowed()
	r.par, r.cur = par, cur
	return out
}
