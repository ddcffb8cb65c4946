// Package fold owns the import fold ([New]): one story with a single
// state tree made of a story and its imports: children, plus the side table
// [Folded] that says where each folded state's files resolve and which
// intent spellings it answers. It must not mutate its pkg/story input nor
// run anything: the engine compiles and runs the folded story.
//
// In full, it owns the import fold: it turns a loaded story whose
// imports: children sit beside it (story.Import.Child) into one story with a
// single state tree, exactly as upstream's loader folds them (wrapper state
// per alias, <alias>__<key> world, renamed intents, mapped exits, rewritten
// targets, lifted host interfaces with their bindings, overrides), plus a
// side table (Folded) telling, per folded state and effect, which story
// directory its files resolve against and which intent spellings it answers.
// It must not touch pkg/story (read-only input, never mutated) nor run
// anything: the engine compiles and runs the folded story.
//
// Layout: fold.go holds the entry point (New) and the side table;
// copy.go the deep copy of the input; merge.go folds one child under its
// alias; rewrite.go the world/target/intent rewriting of child strings;
// overrides.go parses overrides.states/intents; rebase.go re-bases the
// child's prompt and schema paths. Every choice where upstream is odd is
// listed in docs/compat/fold.md.
package fold
