// Package view owns rendering a state's view at run time as upstream does
// ([Renderer.RenderView], from [ForStory] or [FromFolded]): pongo2 string
// views, layouts, template files and typed elements, every problem
// a positioned [Error]. It must not decide when a view is rendered, touch
// the world, the trace or the turn, or edit the story model: pkg/engine
// calls it at turn end and owns the say prepend and the error banner.
//
// Files are read only inside the story's template roots, and rendering
// never panics. Choices where upstream is odd are in docs/compat/views.md.
package view
