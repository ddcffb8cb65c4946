// Package fold owns the import fold ([New]): one story with a single
// state tree made of a story and its imports: children, plus the side table
// [Folded] that says where each folded state's files resolve and which
// intent spellings it answers, with upstream's free-form fallback arc
// copied into every room. It must not mutate its pkg/story input nor run
// anything: the engine compiles and runs the folded story.
//
// The fold is upstream's; every choice where upstream is odd is listed in
// docs/compat/fold.md.
package fold
