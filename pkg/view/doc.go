// Package view owns rendering a state's view at run time as upstream does
// ([Renderer.RenderView], from [ForStory] or [FromFolded]): pongo2 string
// views, layouts, template files and typed elements, every problem
// a positioned [Error]. It must not decide when a view is rendered, touch
// the world, the trace or the turn, or edit the story model: pkg/engine
// calls it at turn end and owns the say prepend and the error banner.
//
// In full, it owns rendering a state's view at run time, as the upstream
// engine does (story-runtime §8, §3.6): pongo2 string views, extends/blocks
// layouts and template_file views resolved against the state's story
// views/ directory, typed element views laid out as plain text at width 80
// (heading, prose, list, kv, code, template, banner, choice, media, with
// element-level when: guards), the ancestor fallback for a state without a
// view, and the joined view of a parallel state.
//
// It must not decide when a view is rendered, nor touch the world, the
// trace or the turn: package engine calls Renderer.RenderView at turn end
// and owns the say prepend and the error banner. It never
// edits the story model (package story) and reads files only inside the
// story's template roots, through story/expr's PongoLoader. Rendering
// never panics: every problem is a positioned *Error.
package view
