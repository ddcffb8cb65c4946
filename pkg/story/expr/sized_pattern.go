package expr

import (
	"fmt"
	"regexp"
	"sync"

	"kitsoki/internal/recost"
)

// maxCachedPatterns and maxCachedPatternBytes bound what one program keeps
// of the patterns its `matches` met: past either, it starts afresh.
const (
	maxCachedPatterns     = 64
	maxCachedPatternBytes = 64 << 10
)

// patternCache is what a program's `matches` learnt of each pattern text:
// its compiled form (a pattern built at run time) and the instructions it
// compiles to (recost), so a guard evaluated in a loop (a long flow, a
// timer, an emit cycle) compiles each pattern once, not every evaluation.
// The refusal past recost's bound still weighs each evaluation's text.
// Safe for concurrent use: a program is shared by parallel fixtures.
type patternCache struct {
	mu    sync.Mutex
	bytes int
	m     map[string]*sizedPattern
}

// maxRuntimePatternBytes bounds a `matches` pattern that is not a literal
// of the story (a world value, a slot, an agent's answer, a host's
// result): what an expression may hold as a literal one (MaxExprBytes).
const maxRuntimePatternBytes = MaxExprBytes

// sizedPattern is one pattern text's compiled form, its compile error (the
// VM's), or refused: a pattern built at run time past the bounds a
// literal one is held to, never compiled.
type sizedPattern struct {
	re      *regexp.Regexp
	insts   int
	err     error
	refused error
}

// get is the pattern text's compiled form (re, when the caller has one
// already) and its instruction count.
func (c *patternCache) get(text string, re *regexp.Regexp) *sizedPattern {
	if c == nil {
		return compilePattern(text, re)
	}
	c.mu.Lock()
	p := c.m[text]
	c.mu.Unlock()
	if p != nil {
		return p
	}
	p = compilePattern(text, re)
	if len(text) > maxCachedPatternBytes {
		return p
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedPatterns || c.bytes+len(text) > maxCachedPatternBytes {
		c.m, c.bytes = map[string]*sizedPattern{}, 0
	}
	c.m[text], c.bytes = p, c.bytes+len(text)
	return p
}

// compilePattern compiles text (unless re is its compiled form) and counts
// its instructions. A pattern built at run time (re nil) is first held to
// what a literal one is at load time: at most maxRuntimePatternBytes, and
// at most recost.MaxInsts instructions, sized before it compiles.
func compilePattern(text string, re *regexp.Regexp) *sizedPattern {
	if re == nil {
		if len(text) > maxRuntimePatternBytes {
			return &sizedPattern{refused: fmt.Errorf("the pattern is %d bytes, more than the %d a pattern built at run time (a world value, a slot, an agent's answer, a host's result) may; match against a shorter pattern, or test the text with contains, startsWith or endsWith", len(text), maxRuntimePatternBytes)}
		}
		if err := recost.Sized(text); err != nil {
			return &sizedPattern{refused: err}
		}
		var err error
		if re, err = regexp.Compile(text); err != nil {
			return &sizedPattern{err: err}
		}
	}
	return &sizedPattern{re: re, insts: recost.Insts(text)}
}
