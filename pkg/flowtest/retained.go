package flowtest

// MaxRetained bounds the bytes of events and views one fixture's turns
// keep until it ends (for the report): each turn may render up to
// expr.MaxRenderBytes, so many turns could otherwise hold gigabytes.
const MaxRetained = 256 << 20

// retainedSize is the bytes of strings a turn's events and view keep
// (structure is small beside them), counting stopped past limit.
func retainedSize(evs []event, view string, limit int) int {
	n := len(view)
	for _, ev := range evs {
		if n > limit {
			break
		}
		n += len(ev.Kind) + len(ev.StatePath) + len(ev.CallID) + len(ev.EpisodeID)
		n += modelSize(ev.payload, limit-n)
	}
	return n
}

// modelSize is the bytes of strings in a JSON model, counting stopped
// past limit.
func modelSize(v any, limit int) int {
	n := 0
	switch t := v.(type) {
	case string:
		n = len(t)
	case map[string]any:
		for k, x := range t {
			if n > limit {
				break
			}
			n += len(k) + modelSize(x, limit-n)
		}
	case []any:
		for _, x := range t {
			if n > limit {
				break
			}
			n += modelSize(x, limit-n)
		}
	}
	return n
}

// retain adds a turn's events and view to what the fixture keeps, and
// fails the fixture at the turn once that passes MaxRetained.
func (fr *fixtureRun) retain(t *Turn, evs []event, view string) bool {
	fr.retained += retainedSize(evs, view, MaxRetained)
	if fr.retained <= MaxRetained {
		return true
	}
	fr.fatal(t.Pos, "turn %d: the fixture's turns so far produced more than %d MiB of events and views, which kitsoki test keeps until the fixture ends; make the story's say:, set: and view: values smaller, or split the fixture", t.Index+1, MaxRetained>>20)
	return false
}
