package engine

import "time"

// hearLocked marks the jobs upstream's listener still hears when a user
// turn first rests the session in a terminal state (restedTerminal); it
// is called with the store locked. A job already finished then is heard
// (conformance storymut-terminal-heard-job; a process still running is
// not, job-process-real-time), and while such a completion keeps the
// listener busy, every job pending then is heard too: upstream either
// aborts the run or lands them (conformance terminal-heard-keeps-pending).
func (s *jobStore) hearLocked(now time.Time) {
	heard := false
	for _, j := range s.jobs {
		if !j.applied && j.settled && !j.due.After(now) {
			j.heard, heard = true, true
		}
	}
	if !heard {
		return
	}
	for _, j := range s.jobs {
		if !j.applied {
			j.heard = true
		}
	}
}

// unhearLocked is a later user turn resting in a terminal state: a
// listener no heard completion keeps busy any more stops for good, so the
// pending jobs hearLocked kept are heard no longer (conformance
// terminal-heard-keeps-pending). It is called with the store locked.
func (s *jobStore) unhearLocked(now time.Time) {
	for _, j := range s.jobs {
		if !j.applied && j.heard && j.settled && !j.due.After(now) {
			return
		}
	}
	for _, j := range s.jobs {
		if !j.applied {
			j.heard = false
		}
	}
}
