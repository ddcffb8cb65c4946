// Package parked owns the test-only means to start a select with two cases
// ready at once, without sleeping: a wait until a goroutine is blocked on a
// channel operation in a named function ([Wait], read from the runtime's
// goroutine dump) and a context that ends only when a select asks for it
// ([Ending]). It must not be imported outside tests, nor start or stop
// goroutines itself.
package parked
