// Package closeonce owns the first-call-wins step of kitsoki's idempotent
// Close methods ([Mark]): set the closed flag under the owner's mutex and
// detach what the first Close releases. It must not release anything itself
// (closing transports, stopping processes, waiting for calls): its callers
// do that outside the lock.
package closeonce
