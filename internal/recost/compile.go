package recost

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"sync"
)

// MaxInsts bounds the instructions one pattern from a repository may
// compile to, and MaxBudgetInsts the patterns of one [Budget] (everything a
// command compiles for one story load) together. Compiling is the cost: a
// pattern's program holds hundreds of bytes an instruction, and repeats
// multiply (`[\p{L}\p{N}]{1,1000}` is a thousand copies of its class), so
// a short pattern can take gigabytes. Real patterns compile to tens or
// hundreds of instructions; `.{0,1000}` to about 2,000.
const (
	MaxInsts       = 10_000
	MaxBudgetInsts = 100_000
)

// Compile is regexp.Compile of a pattern from a repository, refused
// before it is compiled when its program would pass MaxInsts instructions.
func Compile(expr string) (*regexp.Regexp, error) {
	return (&Budget{left: MaxInsts}).Compile(expr)
}

// Budget is what the patterns compiled for one story load may compile to
// together: its schemas with the files their $refs load, its fixtures'
// expect_view_matches and content_matches, its cassettes' phase_from and
// url_pattern, and its plugin profile's redact patterns, however many
// files they are split into. It holds MaxBudgetInsts, each pattern at
// most MaxInsts; a pattern compiled again is the one compiled before and
// costs nothing more. A nil *Budget gives each call a budget of its own
// (one pattern); a Budget is safe for concurrent use.
type Budget struct {
	mu   sync.Mutex
	left int
	done map[string]compiled
}

// compiled is a pattern compiled within a Budget, and its size.
type compiled struct {
	re    *regexp.Regexp
	insts int
}

// NewBudget is a fresh budget of MaxBudgetInsts instructions.
func NewBudget() *Budget { return &Budget{left: MaxBudgetInsts} }

// Compile is regexp.Compile of expr, refused before it is compiled when
// its program would pass MaxInsts instructions or what is left of b; a
// pattern that does not parse is regexp's own error. The caller names
// the file and place of the pattern.
func (b *Budget) Compile(expr string) (*regexp.Regexp, error) {
	if b == nil {
		return Compile(expr)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if c, ok := b.done[expr]; ok {
		return c.re, nil
	}
	n, err := sized(expr)
	if err != nil {
		return nil, err
	}
	if n > b.left {
		return nil, fmt.Errorf("the pattern would compile to about %d instructions, and with the patterns compiled before it for the same story (its schemas, fixtures, cassettes and profile, in every file) more than the %d they may together; use fewer or shorter patterns", n, MaxBudgetInsts)
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	b.left -= n
	if b.done == nil {
		b.done = map[string]compiled{}
	}
	b.done[expr] = compiled{re: re, insts: Insts(expr)}
	return re, nil
}

// Insts is [Insts] of a pattern b compiled, remembered (0 for one it did
// not: sizing it would cost what compiling does); a nil b sizes expr.
func (b *Budget) Insts(expr string) int {
	if b == nil {
		return Insts(expr)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.done[expr].insts
}

// Sized is nil, or the refusal [Compile] would give expr: for a pattern
// another library compiles (expr-lang's checker, a guard's `matches`
// literal). A pattern that does not parse is nil: its compiler says why.
func Sized(expr string) error {
	_, err := sized(expr)
	return err
}

// sized is about the instructions expr compiles to, refused past MaxInsts
// (0 when it does not parse).
func sized(expr string) (int, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return 0, nil
	}
	n := progSize(re) + 2 // the program's fail and match
	if n > MaxInsts {
		return 0, fmt.Errorf("the pattern would compile to about %d instructions, more than the %d one pattern may (its repeats multiply what they repeat); shorten the pattern or its repeat counts", n, MaxInsts)
	}
	return n, nil
}

// progSize is about the instructions syntax.Compile makes of re once
// simplified (a repeat {n,m} is m copies of what it repeats), computed on
// the parse tree in time linear in the pattern, capped at MaxBudgetInsts+1
// so that no count overflows.
func progSize(re *syntax.Regexp) int {
	const most = MaxBudgetInsts + 1
	var sub int
	for _, s := range re.Sub {
		sub = min(most, sub+progSize(s))
	}
	switch re.Op {
	case syntax.OpLiteral:
		return min(most, len(re.Rune)+1)
	case syntax.OpAlternate:
		return min(most, sub+len(re.Sub))
	case syntax.OpCapture, syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		return min(most, sub+2)
	case syntax.OpRepeat:
		copies := re.Max
		if copies < 0 {
			copies = re.Min + 1
		}
		return min(most, sub*max(copies, 1)+copies+1)
	}
	return min(most, sub+1)
}
