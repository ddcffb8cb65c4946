package lazyre

import (
	"regexp"
	"sync/atomic"
)

// Regexp is a pattern compiled by its first use. Declare it as a composite
// literal, `var r = &lazyre.Regexp{Expr: "..."}`, which the compiler lays out
// statically: no start-up work at all. Expr must be a valid pattern; an invalid
// one panics on first use (TestPatternsCompile compiles every literal in the
// module). It is safe for concurrent use.
type Regexp struct {
	Expr string
	re   atomic.Pointer[regexp.Regexp]
}

// Get returns the compiled pattern, compiling it on the first call. Two
// goroutines racing on the first call may both compile; one result wins and
// both are equal.
func (r *Regexp) Get() *regexp.Regexp {
	if re := r.re.Load(); re != nil {
		return re
	}
	re := regexp.MustCompile(r.Expr)
	if r.re.CompareAndSwap(nil, re) {
		return re
	}
	return r.re.Load()
}

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.Get().MatchString(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Get().FindStringSubmatch(s) }

// FindAllString is regexp.Regexp.FindAllString.
func (r *Regexp) FindAllString(s string, n int) []string { return r.Get().FindAllString(s, n) }

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Get().FindAllStringSubmatch(s, n)
}

// FindAllSubmatch is regexp.Regexp.FindAllSubmatch.
func (r *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte { return r.Get().FindAllSubmatch(b, n) }

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Get().ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Get().ReplaceAllStringFunc(src, repl)
}
