package engine

// exitParallel leaves the active parallel configuration: one
// state_exited of its root, and none of the compounds between it and the
// target's common ancestor, as upstream (conformance import-par-exit: a
// region leaf of an imported child's parallel state taking an exit leaves
// `kid.kp` but not the wrapper `kid`; the same for any compound holding
// a parallel state).
func (r *runner) exitParallel() error {
	root := r.par.root
	r.par = nil
	return r.emitState(KindStateExited, root.Path)
}
