// Package sleep owns the one cancellable pause kitsoki's real-time waits
// share ([For]): a timer raced against a context. It must not know what is
// waited for or choose a delay (backoffs, poll intervals and deadlines are
// its callers'), nor stand in for a virtual clock: callers that run on one
// keep their own seam (engine's SessionOptions.Wait, fetch's sleep field).
package sleep
