package engine

import "fmt"

// maxLandHeld bounds what the job completions landing together (one
// advance, or the landing before a turn) keep: their turns' events, which
// an Advance returns as one Turn. Each completion is a turn with its own
// render budget, so a job whose on_complete starts the next one and
// appends to a world value kept every copy of that value until the
// process ran out of memory. It is the most a fixture's turns may keep
// (flowtest.MaxRetained), so no fixture kitsoki test can finish fails by it.
const maxLandHeld = 256 << 20

// maxLandJobs bounds the job completions landing together.
const maxLandJobs = 10000

// What an event and an entry of its payload keep beside their strings.
const (
	heldPerEvent = 512
	heldPerEntry = 64
)

// heldSize is what evs keep, counting stopped past limit.
func heldSize(evs []Event, limit int) int {
	n := 0
	for _, ev := range evs {
		if n > limit {
			break
		}
		n += heldPerEvent + len(ev.Kind) + len(ev.StatePath) + len(ev.CallID) + len(ev.EpisodeID)
		n += payloadSize(ev.Payload, limit-n)
	}
	return n
}

// payloadSize is what a JSON-model payload keeps, counting stopped past
// limit; other values count as an entry.
func payloadSize(v any, limit int) int {
	switch t := v.(type) {
	case string:
		return len(t)
	case map[string]any:
		n := 0
		for k, x := range t {
			if n > limit {
				break
			}
			n += heldPerEntry + len(k) + payloadSize(x, limit-n)
		}
		return n
	case []any:
		n := 0
		for _, x := range t {
			if n > limit {
				break
			}
			n += heldPerEntry + payloadSize(x, limit-n)
		}
		return n
	}
	return heldPerEntry
}

// landErr is the error of completions past r.landCap or r.heldCap: what
// passed, its %s the landing; j lands last, in an "advance", before a
// turn ("jobs") or with no input since the last ("input": inputChain).
func (r *runner) landErr(j *job, when, what string) error {
	landing := "before the turn"
	switch when {
	case "advance":
		landing = "in one advance_clock"
	case "input":
		landing = "since the last input"
	}
	return fmt.Errorf("%s: %s: the on_complete of this %s job (submitted in state %q) starts another job or sets a value that grows each time, without end; start fewer jobs from on_complete, or keep the values it sets small",
		j.e.Pos, fmt.Sprintf(what, landing), j.info.Namespace, j.info.State)
}
