// Package duration owns the one reading of a story duration ([Parse]): a Go
// duration or a day count ("2d", "1.5d"), as `timeout.after`,
// `routing.cache_max_age` and cassette delays write it and upstream's
// app.ParseDuration reads it, so `validate` and `run` accept exactly the
// same values; [Never] names the ones upstream loads but never fires. It
// must not know where a duration appears: callers put the key and position
// in front of its error; flow fixtures' clock values (where "" and NaN days
// are 0 and a negative advance is no advance, flow-format §5.2) stay in
// pkg/flowtest.
package duration
