// Package allocs measures what a piece of code allocates, for tests that
// bound memory by the size of a hostile input rather than by time. It must
// not be imported by product code.
package allocs
