// Package recost bounds the time one match of a regular expression from a
// repository (a fixture's expect_view_matches or content_matches, a
// Starlark cassette's url_pattern) may take. Go's regexp runs in time
// proportional to the text times the instructions the pattern compiles
// to, and a match cannot be interrupted: neither --timeout nor a context
// reaches it. A 3.6 KB fixture whose pattern compiles to 600,000
// instructions, matched against a 400 KB view, kept kitsoki test --sandbox
// --timeout 5s busy past a minute (some 25 ns a step on a loaded CI core:
// hours). The bound is on the worst case; a pattern with a literal prefix
// is usually far faster, but a hostile one is not.
package recost

import (
	"fmt"
	"regexp/syntax"
)

// MaxSteps bounds the text's bytes times the pattern's instructions of one
// match: some 25 s on a loaded core at worst. A 16 MiB view (the render
// cap) may be matched by a pattern of 59 instructions, a 64 KiB one by
// 15,000; the patterns of the compatibility corpus compile to under 100.
const MaxSteps = 1_000_000_000

// Insts is the number of instructions expr compiles to, as package regexp
// compiles it (0 when it does not compile: regexp.Compile says why).
func Insts(expr string) int {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return 0
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 0
	}
	return len(prog.Inst)
}

// Check is an error when matching a pattern of insts instructions against
// n bytes of text could take more than MaxSteps.
func Check(insts, n int) error {
	if insts <= 0 || n <= 0 || int64(insts)*int64(n) <= MaxSteps {
		return nil
	}
	return fmt.Errorf("the pattern compiles to %d instructions, and matching it against %d bytes could take %d steps, over the limit of %d (a match cannot be interrupted); shorten the pattern or match less text", insts, n, int64(insts)*int64(n), int64(MaxSteps))
}
