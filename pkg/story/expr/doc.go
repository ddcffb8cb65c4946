// Package expr owns the three expression syntaxes of a story (expr-lang
// guards and typed values, kitsoki's {{ }} effect-value templates, pongo2
// views and prompts), compiling and evaluating them ([CompileValue],
// [Program], [Template], [PongoLoader]) with errors as [Error]. It must not
// know the story model or which YAML position uses which syntax, nor read
// a template outside its roots ([ErrOutsideRoots]).
//
// A bare name that is no root reads as nil except in a [Strict]
// environment. An [Error] carries upstream's message and, where known, the
// column inside the source. Panics inside expr-lang or pongo2 are recovered
// as errors. Hostile sources are refused before any parser sees them
// (limits.go), and every render runs within a budget (pongo_budget.go).
// The only process-wide settings (autoescape off, kitsoki's filters and
// tags) are fixed at package init.
package expr
