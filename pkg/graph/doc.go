// Package graph owns kitsoki graph's drawing of a story: the machine after
// imports and phases ([Load], [Build]) as a [Graph] of nodes in clusters and
// edges of five kinds (arcs, exits, on_error, timeouts, on_complete),
// narrowed for big stories by a [View] (--state, --depth), written as
// Graphviz DOT ([WriteDOT]), a Mermaid flowchart ([WriteMermaid]) or SVG
// through Graphviz's dot ([RenderSVG]). It must not run a story, call an
// agent, write a file or read one the story's load does not: it reads the
// story through pkg/compose and pkg/fold and returns text.
//
// A [Coverage] (a coverage profile's answers: was this state, this move
// reached?) colours the drawing; the renderers ask it about each node and
// edge through [NodeReach] and [EdgeReach] and know nothing of profiles.
//
// [Graph.IntentPaths] finds the fewest intents from the root to each state
// (a breadth-first search over the arms, guards and templated choices
// ignored; timeouts, on_error and on_complete are not steps, though
// [Graph.MoveReachable] counts them), for kitsoki test --cover -v's hints.
//
// Layout: model.go (Graph, Node, Edge), build.go (the folded story to a
// Graph: target resolution, exits of imported children, templated
// targets), view.go (--state and --depth: subtree, stubs, collapsed
// nodes, merged edges), label.go (label text and wrapping), dot.go,
// mermaid.go (the formats and their escaping), svg.go (dot -Tsvg through
// internal/proc), coverage.go (the Coverage seam), paths.go (intent paths), load.go.
package graph
