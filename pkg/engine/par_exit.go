package engine

// exitParallel leaves the active parallel configuration: one state_exited
// of its root and none above it (conformance import-par-exit).
func (r *runner) exitParallel() error {
	root := r.par.root
	r.par = nil
	return r.emitState(KindStateExited, root.Path)
}
