package engine

// landingStays is an on_error "." of a call an on_error landing's
// on_enter made: upstream takes it as that on_enter failing (conformance
// on-error-landing-enter-fails): the session rests on the landing and
// the turn shows the view of origin, the state it had reached before
// dispatch, with no banner (conformance import-landing-dot, found on an
// imported child's on_error redirect).
func landingStays(r *runner, origin string) {
	r.note(Note{Kind: "on_error", State: r.statePath(), Text: `on_error "." in an on_error landing's on_enter`})
	r.t.capView = origin
}
