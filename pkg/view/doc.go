// Package view owns rendering a state's view at run time as upstream does
// ([Renderer.RenderView], from [ForStory] or [FromFolded]): pongo2 string
// views, layouts, template files and typed elements, every problem
// a positioned [Error]. It must not decide when a view is rendered, touch
// the world, the trace or the turn, or edit the story model: pkg/engine
// calls it at turn end and owns the say prepend and the error banner.
//
// Semantics are story-runtime §8 and §3.6: template_file views and
// extends/blocks layouts resolve against the state's story views/ directory
// (for an imported state, its top-level import's story, as upstream:
// FromFolded);
// typed elements (heading, prose, list, kv, code, template, banner, choice,
// media, each with its own when:, whose value counts by upstream's
// truthiness: when.go) are laid out as upstream's plain text at width 80;
// a state without a view of its own shows nothing; a parallel state joins
// its root's and its region leaves' own views. Files are read only inside the
// story's template roots (story/expr's PongoLoader), and rendering never
// panics. Choices where upstream is odd are in docs/compat/views.md.
package view
