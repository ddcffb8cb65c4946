// Package graph owns kitsoki graph's drawing of a story: the machine after
// imports and phases ([Load], [Build]) as a [Graph] of nodes in clusters and
// edges of five kinds (arcs, exits, on_error, timeouts, on_complete),
// narrowed for big stories by a [View] (--state, --depth), written as
// Graphviz DOT ([WriteDOT]), a Mermaid flowchart ([WriteMermaid]) or SVG
// through Graphviz's dot ([RenderSVG]). It must not run a story, call an
// agent, write a file or read one the story's load does not: it reads the
// story through pkg/compose and pkg/fold and returns text.
//
// A [Coverage] colours the drawing; the renderers ask it about each node
// and edge through [NodeReach] and [EdgeReach] and know nothing of
// profiles. [Graph.IntentPaths] finds the fewest intents from the root to
// each state, for kitsoki test --cover -v's hints.
package graph
