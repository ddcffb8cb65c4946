// Package fold owns the import fold ([New]): one story with a single
// state tree made of a story and its imports: children, plus the side table
// [Folded] that says where each folded state's files resolve and which
// intent spellings it answers, with upstream's free-form fallback arc
// copied into every room. It must not mutate its pkg/story input nor run
// anything: the engine compiles and runs the folded story.
//
// The fold is upstream's: a wrapper state per alias, <alias>__<key> world
// keys, renamed intents, mapped exits, rewritten targets, lifted host
// interfaces with their bindings, overrides. Every choice where upstream is
// odd is listed in docs/compat/fold.md.
//
// Layout: fold.go (entry points, side table), copy.go (deep copy of the
// input), merge.go (one child under its alias), rewrite.go (world, target and
// intent rewriting of child strings), overrides.go (overrides.states and
// overrides.intents), rebase.go (the child's prompt and schema paths),
// landing.go (the free-form fallback arc copied into every room).
package fold
