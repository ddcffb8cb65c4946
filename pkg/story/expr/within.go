package expr

import (
	"errors"
	"strings"
)

// The budgets of a judgement of a guard ahead of a run (validate's and
// lsp's lints): text and lists one judgement may build, range elements it
// may make, and bytes (as JSON) of the values it reads. A guard past them
// is left unjudged: a run's own bounds let one evaluation cost much of a
// second, and a lint judges every guard of a story, or every arm again on
// every turn of its fixtures.
const (
	JudgeBytes = 1 << 20
	JudgeElems = 1 << 16
	JudgeInput = 16 << 10
)

// EvalBoolWithin is EvalBool with one evaluation's budgets lowered: at most
// bytes of text and lists built (as MaxEvalBytes) and elems range elements
// (as expr-lang's million). A check that judges a guard ahead of a run
// (validate's fixture following) uses it, so judging a guard that a
// turn would evaluate once costs that check little, not the much of a
// second a guard within the run's bounds may take; PastBudget tells the
// refusal from the guard's own failure.
func (p *Program) EvalBoolWithin(env Env, bytes int64, elems uint) (bool, error) {
	if bytes <= 0 || elems == 0 {
		return false, &SizeError{Op: "the evaluation"}
	}
	return p.asBool(p.eval(env, bytes, elems))
}

// PastBudget reports whether err is an evaluation stopped by a budget
// (MaxEvalBytes, expr-lang's range budget, or the lower ones of
// EvalBoolWithin) rather than the expression's own failure.
func PastBudget(err error) bool {
	var se *SizeError
	return errors.As(err, &se) || err != nil && strings.Contains(err.Error(), "memory budget exceeded")
}

// RenderWithin is Render with each expression's budgets lowered as
// EvalBoolWithin's, for a lint that renders an effect value ahead of a
// run; PastBudget tells the refusal from the template's own failure.
func (t *Template) RenderWithin(env Env, bytes int64, elems uint) (any, error) {
	if bytes <= 0 || elems == 0 {
		return nil, &SizeError{Op: "the evaluation"}
	}
	return t.render(env, &tplBudget{src: t.src, shared: sharedBudgetOf(env), bytes: bytes, elems: elems})
}
