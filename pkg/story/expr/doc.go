// Package expr owns the three expression syntaxes of a story (expr-lang
// guards and typed values, kitsoki's {{ }} effect-value templates, pongo2
// views and prompts), compiling and evaluating them ([CompileValue],
// [Program], [Template], [PongoLoader]) with errors as [Error]. It must not
// know the story model or which YAML position uses which syntax, nor read
// a template outside its roots ([ErrOutsideRoots]).
//
// The three syntaxes (story-format §6): guards and typed values are expr-lang
// behind kitsoki's whitelist ([CompileGuard], [CompileExpr]); effect-value
// templates are kitsoki's own {{ }} engine with expr-lang inside
// ([IsTemplate], [CompileTemplate], [RenderValue]); views, say, prompts and
// targets are pongo2 with kitsoki's rewrites and filters ([CompilePongo]).
//
// A bare name that is no root (`{{ foo }}`) reads as nil, except in an
// environment marked [Strict] (the engine's guards and effect values),
// where evaluating it fails as upstream's does (barename.go);
// [Program.BareNames] and [Template.BareNames] list such names for lint.
//
// An [Error] carries upstream's message text and, where known, the 1-based
// column inside the source, so the loader can place a diagnostic inside a
// YAML scalar. Panics inside expr-lang or pongo2 are recovered as errors.
// pongo2 template sets are per PongoLoader; the only process-wide settings
// (autoescape off, kitsoki's filters) are fixed at package init.
//
// Hostile sources are refused before any parser sees them (limits.go:
// length and nesting, [MaxExprBytes], [MaxTemplateBytes], [MaxNesting]), and
// every render runs within a budget ([MaxRenderSteps], [MaxRenderBytes]):
// kitsoki's own for and set tags, a capped writer and size-checked filters
// (pongo_budget.go, pongo_tags.go, pongo_filters_sized.go) stop a render on
// its own when the budget or its context ([Pongo.RenderContext],
// [ContextKey]) ends.
//
// [Program.WorldKeys], [Template.WorldKeys] and [PongoWorldKeys] list the
// world keys a compiled source reads by name (worldkeys.go), for lint.
//
// A linter checks a source by compiling it with the library (expr-lang
// or pongo2; [PongoLoader.CheckFileSource] for a template file already
// read): there is no second recogniser beside them.
package expr
