package recost

import (
	"fmt"
	"regexp/syntax"
)

// MaxSteps bounds the text's bytes times the pattern's instructions of one
// match: seconds, not hours, on a loaded core. It leaves room for any
// pattern a fixture means (a word against the largest view the render
// allows) and refuses only patterns that compile to very many
// instructions against long texts.
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
