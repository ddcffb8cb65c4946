package fetch

import (
	"math/rand/v2"
	"time"
)

// maxBackoff caps one retry delay.
const maxBackoff = 10 * time.Second

// retryDelay is the wait before retry number failures (1-based): base
// doubled per failure, capped at maxBackoff, then spread uniformly over
// [d/2, 3d/2) so that parts failing together do not retry in lockstep.
func retryDelay(base time.Duration, failures int) time.Duration {
	d := base << (failures - 1)
	if d > maxBackoff || d <= 0 {
		d = maxBackoff
	}
	return jitter(d, rand.Float64())
}

// jitter maps u in [0,1) onto [d/2, 3d/2).
func jitter(d time.Duration, u float64) time.Duration {
	return d/2 + time.Duration(u*float64(d))
}
