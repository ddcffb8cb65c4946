package engine

import (
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/story"
)

// completeNonFinite is the first NaN or infinite number written as a
// literal in an on_complete chain (its set:, increment:, slots: and with:
// values, nested chains included), ok false when there is none. Upstream
// encodes the chain as JSON when it submits the job, so such a number
// fails the submission (conformance yaml-non-finite; onCompleteRefused).
func completeNonFinite(effs []*story.Effect) (f float64, ok bool) {
	for _, e := range effs {
		if e == nil {
			continue
		}
		for _, v := range e.Literals() {
			if nf, ok := finite(v).(*nonFiniteError); ok {
				return nf.v, true
			}
		}
		for _, sub := range [][]*story.Effect{e.OnComplete(), e.Effects()} {
			if f, ok := completeNonFinite(sub); ok {
				return f, true
			}
		}
	}
	return 0, false
}

// onCompleteRefused fails a background submission whose on_complete chain
// holds such a literal as upstream's does: world.last_error set to Go's
// JSON error, no job, no host_error, no on_error.
func (r *runner) onCompleteRefused(f float64) error {
	msg := "dispatchBackground: marshal on_complete: json: unsupported value: " + jsonvalue.NonFiniteString(f)
	r.keepFirst()
	r.t.rerender, r.t.applied, r.t.submitOnly = true, true, false // the view shows it, as a failed call's
	r.world[story.WorldLastError] = msg
	return r.emitSet(story.WorldLastError, msg)
}
