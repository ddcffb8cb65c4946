package engine

// An on_error, timeout or on_complete target that is a parallel state is
// landed flat, as upstream does: the machine rests on the bare root
// ("p", no region entered, only the root's own on_enter run). There only
// the root's and its ancestors' intents are taken, the root's own timeout
// is armed, and its view is the root's alone. A stay (target: .) from the
// bare root enters its regions, each descending its initial:, with no
// exit or entry of the root itself (probe
// testdata/conformance/land-parallel), and so does an arm naming the root
// itself (conformance bare-parallel-self).

// bareParallel reports whether the machine rests on a bare parallel root.
func (r *runner) bareParallel() bool {
	return r.par == nil && r.cur != nil && r.cur.Parallel
}
