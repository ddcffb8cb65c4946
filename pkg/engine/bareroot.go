package engine

// bareParallel reports whether the machine rests on a bare parallel root,
// where an on_error, timeout or on_complete landing leaves it with no
// region entered (conformance land-parallel, bare-parallel-self).
func (r *runner) bareParallel() bool {
	return r.par == nil && r.cur != nil && r.cur.Parallel
}
