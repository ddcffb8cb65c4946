// Package parked owns one test-only wait: until a goroutine is blocked on a
// channel operation in a named function ([Wait]), read from the runtime's
// goroutine dump, so a test can make two select cases ready at once
// without sleeping. It must not be imported outside tests, nor start or
// stop goroutines itself.
package parked
