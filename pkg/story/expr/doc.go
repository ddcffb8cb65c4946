// Package expr owns the three expression syntaxes of a story (expr-lang
// guards and typed values, kitsoki's {{ }} effect-value templates, pongo2
// views and prompts), compiling and evaluating them ([CompileValue],
// [Program], [Template], [PongoLoader]) with errors as [Error]. It must not
// know the story model or which YAML position uses which syntax, nor read
// a template outside its roots ([ErrOutsideRoots]).
//
// In full, it owns the three expression syntaxes a story uses, each fixed by
// its YAML position (story-format §6):
//
//   - guards and typed values: expr-lang behind kitsoki's whitelist
//     (CompileGuard, CompileExpr, Program);
//   - effect-value templates: kitsoki's own {{ }} engine with expr-lang inside
//     (IsTemplate, CompileTemplate, Template, RenderValue, CompileValue);
//   - views, say, prompts, targets: pongo2 with kitsoki's rewrites and filters
//     (PongoLoader, CompilePongo, Pongo).
//
// Every compile or evaluation problem is returned as an *Error carrying the
// message text the upstream engine uses and, where known, the 1-based column
// inside the source, so the story loader can place a diagnostic inside a YAML
// scalar.
//
// The package does not read stories, know about states or effects, or decide
// which YAML position uses which syntax: package story and package engine do.
// A PongoLoader reads include, extends and import targets only inside its
// template roots (search directories, namespaces, the directories of files
// it compiled): an absolute name or a ".." that leaves them is refused with
// ErrOutsideRoots, so a story cannot pull /etc/passwd into a prompt.
// It never panics on user input: panics raised inside expr-lang or pongo2 are
// recovered and returned as errors. It keeps no mutable global state: pongo2
// template sets are per PongoLoader. The only process-wide pongo2 settings
// (autoescape off, kitsoki's custom filters) are fixed once at package init
// and never change.
package expr
