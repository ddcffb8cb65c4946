package flowtest

// handlerPanics fails turn t (nil: the fixture's end) once for each
// handler panic the session logged since the last look: the engine turned
// the panic into the call's failure and the run went on (on_error, a
// failed job), but a panic is a kitsoki bug, so the fixture fails even
// where the story handles the failure. tr is the turn's result (nil when
// the turn kept none).
func (fr *fixtureRun) handlerPanics(t *Turn, tr *TurnResult) {
	if fr.sess == nil { // a stranded start runs no handler
		return
	}
	if fr.sess != fr.bugSess {
		fr.bugSess, fr.bugSeen = fr.sess, 0
	}
	bugs := fr.sess.Bugs()
	if len(bugs) <= fr.bugSeen {
		return
	}
	turn, pos := -1, fr.fx.Pos
	if t != nil && tr != nil {
		turn, pos = t.Index, t.Pos
	}
	for _, msg := range bugs[fr.bugSeen:] {
		fr.res.Failures = append(fr.res.Failures, Failure{Turn: turn, Pos: pos, Message: msg, State: fr.sess.State()})
		if turn >= 0 {
			tr.Failures = append(tr.Failures, msg)
			tr.Passed = false
		}
	}
	fr.bugSeen = len(bugs)
}
