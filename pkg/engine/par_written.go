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
// par-start-unknown-region). Both paths read it as written, a region's
// entry listed last holding its place: the sender's own move, written
// after the encodings (conformance par-emit-root-initial); the legacy
// path prints it sorted (and rereads it so after a refusal:
// resortListed), the orchestrator as written.
func (r *runner) readBackWritten() {
	pc := r.par
	if pc == nil || len(pc.enc) == 0 {
		return
	}
	spec := pc.encode()
	_, rest, _ := strings.Cut(spec, "#")
	if r.placeParallel(spec, pc.root.Path, rest, true, false) != nil {
		// no entry of a written path is refused (each is a state of
		// the root or an entry in no region): keep the configuration
		r.par = pc
	}
}

// resortListed is what a refused turn leaves on the legacy path while the
// machine rests on a path as listed (a fixture's start, a path a receiver
// wrote, read back; placeParallel): upstream's legacy rig then holds the
// path sorted, so the turns after read it back sorted, a region's entry
// last in that order holding its place (conformance par-emit-root-initial
// ma, mc, mg; par-start-two-leaves d, e). The orchestrator keeps it as
// written; a legacy expect_error turn goes back to the path as it was.
func (r *runner) resortListed() {
	pc := r.par
	if !r.so.MachineOnly || pc == nil || pc.listed == "" {
		return
	}
	root, rest, _ := strings.Cut(pc.listed, "#")
	if r.placeParallel(pc.listed, root, rest, true, true) != nil {
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
