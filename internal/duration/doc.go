// Package duration owns the one reading of a story duration ([Parse]): a Go
// duration or whole days, as `timeout.after`, `routing.cache_max_age` and
// cassette delays write it, so `validate` and `run` accept exactly the same
// values. It must not know where a duration appears: callers put the key
// and position in front of its error; flow fixtures' fractional days
// ("1.5d", flow-format §5.2) are their own format and stay in pkg/flowtest.
package duration
